import type { aiQueue } from '../../jobs/ai';
import type { Registration } from '../registry';
import { notBuiltYet } from './notYet';

export const aiHandlers: Registration<typeof aiQueue>[] = [
  ['analyze-event', notBuiltYet('event analysis')],
  ['refit', notBuiltYet('model refit')],
];
