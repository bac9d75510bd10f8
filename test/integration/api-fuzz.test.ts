import { expect } from 'chai';
import { startApi, type TestServer } from '../helpers/api';
import { hostileRequests, type HostileRequest } from '../helpers/hostileRequests';
import { accountWithKey } from '../helpers/meteredApp';
import { insertEvents, seedReference } from '../helpers/fixtures';
import { rawRequest, type RawAnswer } from '../helpers/rawHttp';

/** Fixed, so a failure is reproduced by running the file again; change it to explore. */
const SEED = 20261125;
const COUNT = 600;
const CONCURRENCY = 8;
const ANSWER_WITHIN_MS = 10000;

interface Outcome {
  request: HostileRequest;
  answer: RawAnswer;
}

/** Why this answer breaks the contract, or undefined when it keeps it. */
function violation({ request, answer }: Outcome): string | undefined {
  if (answer.hung) return 'no answer';
  if (answer.reset) return 'connection reset';
  if (answer.status === 0) return 'closed without a status line';
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status < 400 || request.method === 'HEAD') return undefined;
  let body: Record<string, unknown>;
  try {
    body = JSON.parse(answer.body) as Record<string, unknown>;
  } catch {
    return `status ${answer.status} with a body that is not JSON: ${JSON.stringify(answer.body.slice(0, 80))}`;
  }
  if (body.statusCode !== answer.status || typeof body.message !== 'string' || typeof body.error !== 'string') return `status ${answer.status} not in the error shape: ${answer.body.slice(0, 120)}`;
  if (/\n\s+at /.test(String(body.message))) return 'stack trace in the message';
  return undefined;
}

async function runAll(url: string, requests: HostileRequest[]): Promise<Outcome[]> {
  const outcomes: Outcome[] = [];
  let next = 0;
  const lane = async () => {
    while (next < requests.length) {
      const request = requests[next++];
      outcomes.push({ request, answer: await rawRequest(url, request.bytes, ANSWER_WITHIN_MS) });
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, lane));
  return outcomes;
}

describe(`API fuzz: ${COUNT} seeded random and hostile requests against the real server (seed ${SEED})`, function () {
  this.timeout(180000);
  let api: TestServer;
  let outcomes: Outcome[];

  before(async () => {
    api = await startApi();
    await seedReference();
    const base = 7_810_000 + Math.floor(Math.random() * 1000) * 10; // this file's own ids
    const eventIds = [0, 1, 2].map((i) => String(base + i));
    const now = Date.now();
    await insertEvents(
      { id: eventIds[0], start: new Date(now + 3_600_000) },
      { id: eventIds[1], start: new Date(now - 1_800_000), status: 'live' },
      { id: eventIds[2], start: new Date(now - 7_200_000), status: 'completed' },
    );
    const testKey = await accountWithKey(50, 'test');
    outcomes = await runAll(api.url, hostileRequests(SEED, COUNT, { live: api.key!, test: testKey.key, eventIds }));
  });
  after(() => api.close());

  it('error: every answer is a status, none a 5xx, a hang or a reset; every non-2xx is in the error shape', () => {
    const bad = outcomes.map((o) => ({ o, why: violation(o) })).filter((x) => x.why);
    const report = bad.slice(0, 10).map(({ o, why }) => `${why} <- [${o.request.kind}] ${o.request.bytes.subarray(0, 160).toString('latin1').split('\r\n')[0]}`);
    expect(report, `${bad.length} of ${outcomes.length} broke the contract`).to.deep.equal([]);
  });

  it('happy: the mix reaches every kind of answer, so the assertions above cover them', () => {
    expect(outcomes).to.have.length(COUNT);
    const statuses = new Set(outcomes.map((o) => o.answer.status));
    for (const status of [200, 400, 401, 404, 405, 414, 431]) expect([...statuses], `status ${status}`).to.include(status);
    const kinds = new Set(outcomes.map((o) => o.request.kind));
    expect([...kinds].sort()).to.deep.equal(['malformed header', 'oversize header', 'oversize line', 'parameters', 'path variants', 'plain', 'raw bytes']);
  });
});
