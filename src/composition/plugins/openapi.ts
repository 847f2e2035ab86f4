import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { buildOpenApiDocument, DEFAULT_API_DESCRIPTION, type OpenApiDocument, type OpenApiInfo } from '../../adapters/openapi/build-openapi-document.js';
import { escapeHtml, missingPackages, type HttpResponse } from '../../adapters/http-koa/index.js';
import type { Plugin, PluginContext } from '../plugin.js';
import { TOKENS } from '../tokens.js';

export interface OpenApiOptions {
  /** Serve the document and Swagger UI (default: on in development, off in production). */
  readonly enabled?: boolean;
  /** Where the document is served (default `<rest prefix>/openapi.json`). */
  readonly path?: string;
  /** Where Swagger UI is served (default `<rest prefix>/docs`); its assets live below it. */
  readonly docsPath?: string;
  /** The document's `info.title` (default `Portico API`). */
  readonly title?: string;
  /** The document's `info.version` (default `1.0.0`). */
  readonly version?: string;
  /** The document's `info.description` (default: a sentence on Portico's conventions). */
  readonly description?: string;
  /** The document's `info.contact` (none by default: who answers for an API is the application's to say). */
  readonly contact?: OpenApiInfo['contact'];
}

/** The Swagger UI files served from the installed `swagger-ui-dist` package, with their content types. */
const ASSETS: Readonly<Record<string, string>> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

/** A string as a JavaScript literal that is safe inside an inline `<script>`. */
const scriptString = (text: string): string => JSON.stringify(text).replace(/</g, '\\u003c');

/** The Swagger UI page: the three assets, then an inline script pointing Swagger UI at the document (no network beyond this server). */
function docsPage(title: string, docsPath: string, documentPath: string): string {
  const asset = (name: string) => escapeHtml(`${docsPath}/${name}`);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${asset('swagger-ui.css')}">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${asset('swagger-ui-bundle.js')}" charset="utf-8"></script>
<script src="${asset('swagger-ui-standalone-preset.js')}" charset="utf-8"></script>
<script>
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: ${scriptString(documentPath)},
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
    layout: 'StandaloneLayout',
    requestInterceptor: function (req) {
      var m = document.cookie.match(/(?:^|;\\s*)portico_csrf=([^;]*)/);
      if (m) req.headers['X-CSRF-Token'] = decodeURIComponent(m[1]);
      return req;
    }
  });
});
</script>
</body>
</html>
`;
}

/**
 * The OpenAPI plugin (DESIGN §3 "OpenAPI", "developer pages"): the OpenAPI 3.1 document of
 * what the REST layer serves at `GET /api/openapi.json`, and Swagger UI at `GET /api/docs`,
 * served from the installed `swagger-ui-dist` package (never a CDN). On in development, off in
 * production unless `enabled: true`. Mount it after `rest()`: it reads what REST serves; the
 * document is built once, on its first request.
 *
 * @example
 * app.use(rest().resource({ table: 'author', permission: AllowAny }))
 *    .use(openapi({ title: 'Shop API', version: '2.1.0' }));
 */
export class OpenApiPlugin implements Plugin {
  readonly name = 'openapi';

  constructor(private readonly options: OpenApiOptions = {}) {}

  install(ctx: PluginContext): void {
    const served = ctx.getOptional(TOKENS.RestServed);
    if (!served) throw new Error('openapi() must be mounted after rest()');
    const title = this.options.title ?? 'Portico API';
    const info: OpenApiInfo = {
      title,
      version: this.options.version ?? '1.0.0',
      description: this.options.description ?? DEFAULT_API_DESCRIPTION,
      ...(this.options.contact ? { contact: this.options.contact } : {}),
    };
    let document: OpenApiDocument | undefined;
    const built = (): OpenApiDocument => (document ??= buildOpenApiDocument(served, info));
    // Bound served or not: `portico gen-client` writes its client from it.
    ctx.bind(TOKENS.OpenApiDocument, built);
    if (!(this.options.enabled ?? !ctx.production)) return;
    const documentPath = this.options.path ?? `${served.prefix}/openapi.json`;
    const docsPath = trimSlash(this.options.docsPath ?? `${served.prefix}/docs`);
    for (const r of served.resources) {
      const taken = `${served.prefix}/${r.model.table}`;
      if (documentPath === taken || docsPath === taken) throw new Error(`openapi: ${taken} is the REST resource ${r.model.table}; pick another path or docsPath`);
    }

    ctx.route({
      method: 'GET',
      path: documentPath,
      handler: () => ({ status: 200, body: built(), headers: { 'Cache-Control': 'no-cache' } }),
    });

    ctx.advertise({ group: 'openapi', name: 'openapi', method: 'GET', path: documentPath, label: 'OpenAPI document' });
    // Swagger UI is an optional peer: without it the document is still served, and one line says so.
    if (missingPackages(['swagger-ui-dist']).length > 0) {
      ctx.logger.warn({ missing: ['swagger-ui-dist'] }, `openapi: the Swagger UI page (${docsPath}) is not served; install the optional package swagger-ui-dist (npm install -D swagger-ui-dist)`);
    } else {
      const page = docsPage(title, docsPath, documentPath);
      ctx.route({ method: 'GET', path: docsPath, handler: () => ({ status: 200, body: page, type: 'text/html; charset=utf-8', headers: { 'Cache-Control': 'no-cache' } }) });
      const dist = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
      const cache = new Map<string, Promise<string>>();
      for (const [file, type] of Object.entries(ASSETS)) {
        ctx.route({
          method: 'GET',
          path: `${docsPath}/${file}`,
          handler: async (): Promise<HttpResponse> => {
            let content = cache.get(file);
            if (!content) {
              content = readFile(join(dist, file), 'utf8');
              content.catch(() => cache.delete(file));
              cache.set(file, content);
            }
            return { status: 200, body: await content, type, headers: { 'Cache-Control': 'public, max-age=3600' } };
          },
        });
      }
      ctx.advertise({ group: 'openapi', name: 'docs', method: 'GET', path: docsPath, label: 'Swagger UI' });
    }
  }
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/**
 * Creates the OpenAPI plugin; mount it after `rest()`.
 *
 * @example
 * app.use(rest()).use(openapi({ enabled: process.env.NODE_ENV !== 'production' }));
 */
export function openapi(options: OpenApiOptions = {}): OpenApiPlugin {
  return new OpenApiPlugin(options);
}
