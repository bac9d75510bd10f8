import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { expect } from 'chai';
import { isValidTimeZone } from '../../shared/domain/days';
import { startApi, type TestServer } from './api';
import { clearReadData, insertEvents, seedReference, type EventFixture } from './fixtures';

export interface Checked {
  status: number;
  body: any;
  headers: Headers;
}

/**
 * The API over real HTTP where EVERY response is validated against the OpenAPI document the
 * API itself serves (the schema of the matched operation and status): a field the document does
 * not describe, a wrong type or a missing required field fails the test that saw it.
 */
export interface ReadApi {
  url: string;
  /** The funded live key every request sends (see startApi). */
  key: string;
  get(path: string, headers?: Record<string, string>): Promise<Checked>;
  /** Responses validated so far, per operation (the OpenAPI test checks coverage). */
  validated: Map<string, Set<number>>;
  document: any;
  close(): Promise<void>;
}

function operationMatcher(paths: string[]) {
  const templates = paths.map((p) => ({
    path: p,
    literal: !p.includes('{'),
    re: new RegExp(`^${p.replace(/\{\w+\}/g, '[^/]+')}$`),
  }));
  // Literal paths win over templates: /v2/matches/live is not /v2/matches/{eventId}.
  templates.sort((a, b) => Number(b.literal) - Number(a.literal));
  return (pathname: string) => templates.find((t) => t.re.test(pathname))?.path;
}

export async function readApi(): Promise<ReadApi> {
  const server: TestServer = await startApi();
  const docRes = await server.get('/v2/openapi.json');
  expect(docRes.status).to.equal(200);
  const document = docRes.body;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addFormat('iana-timezone', { type: 'string', validate: isValidTimeZone });
  ajv.addSchema(document, 'api');
  const match = operationMatcher(Object.keys(document.paths));
  const validators = new Map<string, ValidateFunction>();
  const validated = new Map<string, Set<number>>();

  const validatorFor = (path: string, status: number): ValidateFunction => {
    const key = `${path} ${status}`;
    let v = validators.get(key);
    if (!v) {
      const responses = document.paths[path].get.responses;
      expect(responses, `${path} documents status ${status}`).to.have.property(String(status));
      const pointer = `api#/paths/${path.replace(/~/g, '~0').replace(/\//g, '~1')}/get/responses/${status}/content/application~1json/schema`;
      v = ajv.getSchema(pointer)!;
      expect(v, `schema of ${key}`).to.be.a('function');
      validators.set(key, v);
    }
    return v;
  };

  return {
    url: server.url,
    key: server.key!,
    document,
    validated,
    async get(path, headers) {
      const res = await server.get(path, headers);
      const pathname = new URL(path, server.url).pathname;
      const op = match(pathname);
      if (op && res.headers.get('content-type')?.startsWith('application/json')) {
        const validate = validatorFor(op, res.status);
        const ok = validate(res.body);
        expect(ok, `${path} -> ${res.status} does not match the OpenAPI document: ${JSON.stringify(validate.errors?.slice(0, 3))}`).to.equal(true);
        if (!validated.has(op)) validated.set(op, new Set());
        validated.get(op)!.add(res.status);
      }
      return res;
    },
    close: () => server.close(),
  };
}

/** The validating API over a read store holding only the reference data and these events. */
export async function readApiWith(...events: EventFixture[]): Promise<ReadApi> {
  const api = await readApi();
  await clearReadData();
  await seedReference();
  if (events.length) await insertEvents(...events);
  return api;
}
