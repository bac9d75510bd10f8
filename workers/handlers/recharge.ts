import type { rechargeQueue } from '../../jobs/recharge';
import type { Registration } from '../registry';
import { notBuiltYet } from './notYet';

export const rechargeHandlers: Registration<typeof rechargeQueue>[] = [
  ['charge', notBuiltYet('auto-recharge charge')],
  ['sweep', notBuiltYet('auto-recharge sweep')],
];
