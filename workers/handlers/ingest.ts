import type { ingestQueue } from '../../jobs/ingest';
import type { Registration } from '../registry';
import { notBuiltYet } from './notYet';

export const ingestHandlers: Registration<typeof ingestQueue>[] = [['poll', notBuiltYet('provider polling')]];
