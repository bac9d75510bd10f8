import type { settlementQueue } from '../../jobs/settlement';
import { sweepUnsettled } from '../../shared/settlement/sweep';
import type { Registration } from '../registry';
import { notBuiltYet } from './notYet';

export const settlementHandlers: Registration<typeof settlementQueue>[] = [
  ['settle-event', notBuiltYet('event settlement')],
  ['sweep', () => sweepUnsettled()],
  ['rollup', notBuiltYet('performance rollup')],
];
