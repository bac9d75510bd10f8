import express, { Router } from 'express';
import { getConfig } from '../../shared/config';
import { openApiDocument, type DocumentedRoute } from '../openapi';
import { emptyQuery } from '../schemas/queries';

/** GET /v2/health as documented (its router lives in health.ts with this very query schema). */
export const healthDoc: DocumentedRoute = {
  path: '/health',
  operationId: 'health',
  summary: 'Health check',
  description: 'MongoDB and Redis status with latency, job counts per queue, last ingest time and provider breaker states. 503 (error shape plus the same details) when MongoDB or Redis is down.',
  tag: 'System',
  auth: 'none',
  query: emptyQuery,
  response: 'health',
};

// swagger-ui-dist ships the browser bundle; its files are served from here, never from a CDN.
// (Its main module would load the whole 1.4 MB bundle into the server just to name the folder.)
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loads only the path helper (see above); swagger-ui-dist has no types for it
const SWAGGER_DIR: string = (require('swagger-ui-dist/absolute-path.js') as () => string)();

const INDEX_HTML = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>Sports Odds API v2 - reference</title>
  <link rel="stylesheet" href="./swagger-ui.css">
  <link rel="stylesheet" href="./index.css">
  <link rel="icon" type="image/png" href="./favicon-32x32.png" sizes="32x32">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="./swagger-ui-bundle.js"></script>
  <script src="./swagger-ui-standalone-preset.js"></script>
  <script src="./swagger-initializer.js"></script>
</body>
</html>
`;

const INITIALIZER = `window.onload = function () {
  window.ui = SwaggerUIBundle({
    url: '../openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
  });
};
`;

/** An origin's host part as a client may send it: a name or IPv4 address, or a bracketed IPv6 one, and a port. */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

/**
 * /v2/openapi.json and the browsable reference at /v2/docs/. The document names one server:
 * PUBLIC_URL when set, else the origin this very request used (its Host header, when it is a
 * plain host name), so "Try it out" and generated clients call the API where it was found.
 */
export function docsRouter(routes: readonly DocumentedRoute[]): Router {
  const router = Router();
  const document = openApiDocument(routes);
  const configured = getConfig().PUBLIC_URL.replace(/\/+$/, '');
  const serialize = (server: string): Buffer => Buffer.from(JSON.stringify({ ...document, servers: [{ url: server }] }));
  const fixed: Buffer | undefined = configured ? serialize(configured) : undefined;
  const byOrigin = new Map<string, Buffer>(); // a few hosts at most; bounded anyway
  router.get('/openapi.json', (req, res) => {
    let body: Buffer | undefined = fixed;
    if (!body) {
      const host = req.headers.host ?? '';
      const origin = HOST.test(host) ? `${req.protocol}://${host}` : '/';
      const built: Buffer = byOrigin.get(origin) ?? serialize(origin);
      if (byOrigin.size < 32) byOrigin.set(origin, built);
      body = built;
    }
    res.setHeader('Content-Type', 'application/json; charset=utf-8');
    res.setHeader('Content-Length', body.length);
    res.end(body);
  });
  // Non-strict routing matches /docs and /docs/ alike; the page's relative asset URLs need the slash.
  router.get('/docs', (req, res) => {
    if (!new URL(req.originalUrl, 'http://x').pathname.endsWith('/')) return res.redirect(301, `${req.baseUrl}/docs/`);
    res.type('html').send(INDEX_HTML);
  });
  router.get('/docs/index.html', (_req, res) => res.type('html').send(INDEX_HTML));
  router.get('/docs/swagger-initializer.js', (_req, res) => res.type('application/javascript').send(INITIALIZER));
  router.use('/docs', express.static(SWAGGER_DIR, { index: false, maxAge: '1h', fallthrough: true }));
  return router;
}
