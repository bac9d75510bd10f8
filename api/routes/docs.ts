import express, { Router } from 'express';
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

/** /v2/openapi.json (serialized once) and the browsable reference at /v2/docs/. */
export function docsRouter(routes: readonly DocumentedRoute[]): Router {
  const router = Router();
  const body = Buffer.from(JSON.stringify(openApiDocument(routes)));
  router.get('/openapi.json', (_req, res) => {
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
