import { notFound } from '../errors';
import { publicOrigin } from '../requestAddress';
import { openApiDocument } from '../openapi';
import { route } from './route';
import type { Route, RouteDescription } from './spec';

// swagger-ui-dist ships the browser bundle; its files are served from here, never from a CDN.
// (Its main module would load the whole 1.4 MB bundle into the server just to name the folder.)
// eslint-disable-next-line @typescript-eslint/no-require-imports -- loads only the path helper (see above); swagger-ui-dist has no types for it
const absolutePath: unknown = require('swagger-ui-dist/absolute-path.js');
const swaggerDir: unknown = typeof absolutePath === 'function' ? Reflect.apply(absolutePath, undefined, []) : undefined;
const SWAGGER_DIR = typeof swaggerDir === 'string' ? swaggerDir : '';

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

/**
 * /v2/openapi.json and the browsable reference at /v2/docs/. The document names one server:
 * PUBLIC_URL when set, else the address and port the request arrived on (never its Host header,
 * which any client can set: api/requestAddress.ts).
 */
export function docsRoutes(routes: readonly RouteDescription[], publicUrl: string): Route[] {
  const document = openApiDocument(routes, publicUrl);
  const configured = publicUrl.replace(/\/+$/, '');
  const serialize = (server: string): Buffer => Buffer.from(JSON.stringify({ ...document, servers: [{ url: server }] }));
  const fixed: Buffer | undefined = configured ? serialize(configured) : undefined;
  const byOrigin = new Map<string, Buffer>(); // a few hosts at most; bounded anyway
  const page = { mount: '/v2', auth: 'none', tag: 'System', documented: false, query: null, response: { type: 'string' } } as const;
  return [
    route({
      ...page,
      path: '/openapi.json',
      price: '/v2/openapi.json',
      operationId: 'openApiDocument',
      summary: 'This OpenAPI document',
      description: 'The OpenAPI 3.1 document of the API.',
      response: { type: 'object' },
      handler: ({ req, text }) => {
        let body: Buffer | undefined = fixed;
        if (!body) {
          const origin = publicOrigin(req, publicUrl);
          const built: Buffer = byOrigin.get(origin) ?? serialize(origin);
          if (byOrigin.size < 32) byOrigin.set(origin, built);
          body = built;
        }
        return text('application/json; charset=utf-8', body);
      },
    }),
    route({
      ...page,
      path: '/docs',
      price: '/v2/docs',
      operationId: 'docsPage',
      summary: 'Browsable reference',
      description: 'Swagger UI over this document.',
      // Non-strict routing matches /docs and /docs/ alike; the page's relative asset URLs need the slash.
      handler: ({ req, text, redirect }) => (new URL(req.originalUrl, 'http://x').pathname.endsWith('/') ? text('text/html; charset=utf-8', INDEX_HTML) : redirect(301, `${req.baseUrl}/docs/`)),
    }),
    route({
      ...page,
      path: '/docs/index.html',
      price: '/v2/docs/{asset}',
      operationId: 'docsIndex',
      summary: 'Browsable reference',
      description: 'Swagger UI over this document.',
      handler: ({ text }) => text('text/html; charset=utf-8', INDEX_HTML),
    }),
    route({
      ...page,
      path: '/docs/swagger-initializer.js',
      price: '/v2/docs/{asset}',
      operationId: 'docsInitializer',
      summary: 'Swagger UI initializer',
      description: 'Points Swagger UI at this document.',
      handler: ({ text }) => text('application/javascript; charset=utf-8', INITIALIZER),
    }),
    route({
      ...page,
      path: '/docs/{asset}',
      price: '/v2/docs/{asset}',
      operationId: 'docsAsset',
      summary: "The reference page's files",
      description: 'Swagger UI files, served from the installed package, never from a CDN.',
      files: { dir: SWAGGER_DIR, maxAge: '1h', only: ['swagger-ui.css', 'index.css', 'favicon-32x32.png', 'favicon-16x16.png', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js'] },
      // Never reached: mountRoute serves `files` routes with express.static; a name it does not serve falls through to the 404.
      handler: () => {
        throw notFound('No such file of the reference page');
      },
    }),
  ];
}
