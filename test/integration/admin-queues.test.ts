import { expect } from 'chai';
import { createApp } from '../../api/app';
import { setEnvForChildren } from '../../shared/platform/config';
import { serve, type TestServer } from '../helpers/api';

const basic = (u: string, p: string) => ({ Authorization: `Basic ${Buffer.from(`${u}:${p}`).toString('base64')}` });

describe('Bull Board at /admin/queues', () => {
  describe('with ADMIN_USER and ADMIN_PASSWORD', () => {
    let api: TestServer;
    before(async () => {
      setEnvForChildren({ ADMIN_USER: 'ops', ADMIN_PASSWORD: 's3cret-pass' });
      api = await serve(createApp());
    });
    after(async () => {
      await api.close();
      setEnvForChildren({ ADMIN_USER: '', ADMIN_PASSWORD: '' });
    });

    it('security: 401 without credentials, with a Basic challenge', async () => {
      const res = await api.get('/admin/queues');
      expect(res.status).to.equal(401);
      expect(res.headers.get('www-authenticate')).to.match(/^Basic/);
      expect(res.body).to.include({ statusCode: 401, error: 'Unauthorized' });
    });

    it('security: 401 with a wrong password', async () => {
      expect((await api.get('/admin/queues', basic('ops', 'nope'))).status).to.equal(401);
    });

    it('happy: serves the dashboard and its API with the right credentials', async () => {
      const page = await api.get('/admin/queues', basic('ops', 's3cret-pass'));
      expect(page.status).to.equal(200);
      expect(String(page.body)).to.include('<html');
      const queues = await api.get('/admin/queues/api/queues', basic('ops', 's3cret-pass'));
      expect(queues.status).to.equal(200);
      expect(queues.body.queues.map((q: { name: string }) => q.name)).to.include.members(['ingest', 'ai', 'settlement', 'recharge']);
    });
  });

  it('error: disabled (404) when the credentials are unset', async () => {
    setEnvForChildren({ ADMIN_USER: '', ADMIN_PASSWORD: '' });
    const api = await serve(createApp());
    try {
      expect((await api.get('/admin/queues')).status).to.equal(404);
    } finally {
      await api.close();
    }
  });
});
