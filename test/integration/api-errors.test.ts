import { expect } from 'chai';
import express from 'express';
import { errorHandler, notFoundRoute } from '../../api/middleware/errors';
import { requestLog } from '../../api/middleware/requestLog';
import { serve, startApi, type TestServer } from '../helpers/api';

describe('API error contract', () => {
  let api: TestServer;
  before(async () => (api = await startApi()));
  after(() => api.close());

  it('happy: every response carries a request id', async () => {
    const res = await api.get('/v2/health', { 'X-Request-Id': 'client-req-1' });
    expect(res.headers.get('x-request-id')).to.equal('client-req-1');
    const generated = await api.get('/v2/health');
    expect(generated.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);
  });

  it('error: unknown route is 404 in the error shape', async () => {
    const res = await api.get('/v2/nope');
    expect(res.status).to.equal(404);
    expect(res.body).to.deep.equal({ statusCode: 404, message: 'Cannot GET /v2/nope', error: 'Not Found', code: 'not_found', requestId: res.headers.get('x-request-id') });
  });

  it('error: an unknown query parameter is 400 naming it', async () => {
    const res = await api.get('/v2/health?verbose=1');
    expect(res.status).to.equal(400);
    expect(res.body).to.include({ statusCode: 400, error: 'Bad Request' });
    expect(res.body.message).to.match(/^Invalid request parameters: .*verbose/);
  });

  it('security: nested query syntax is a 400, never an object', async () => {
    const res = await api.get('/v2/health?status[$ne]=x');
    expect(res.status).to.equal(400);
    expect(Object.keys(res.body).sort()).to.deep.equal(['code', 'error', 'message', 'requestId', 'statusCode']);
  });

  it('security: a 500 carries no stack trace and no internal message', async () => {
    // The production middleware around a route that fails unexpectedly.
    const app = express();
    app.use(requestLog());
    app.get('/boom', () => {
      throw new Error('connection string mongodb://secret@db at /srv/app/x.ts:12');
    });
    app.use(notFoundRoute);
    app.use(errorHandler);
    const srv = await serve(app);
    try {
      const res = await srv.get('/boom');
      expect(res.status).to.equal(500);
      expect(res.body).to.deep.include({ statusCode: 500, message: 'Internal server error', error: 'Internal Server Error', code: 'internal_error' });
      expect(Object.keys(res.body)).to.have.members(['statusCode', 'message', 'error', 'code', 'requestId']);
    } finally {
      await srv.close();
    }
  });
});
