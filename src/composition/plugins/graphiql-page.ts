import { packageAsset, type PackageAsset, type RouteDef } from '../../adapters/http-koa/index.js';

/** What the explorer is built from: optional peers of Portico, installed by a host that wants it. */
export const GRAPHIQL_PACKAGES = ['graphiql', 'react', 'react-dom'] as const;

/**
 * GraphiQL at `GET <path>` (SPEC "GraphQL": on in development), served entirely from installed
 * packages (`graphiql`, `react`, `react-dom` UMD builds) so it works with no network.
 */
export function graphiqlRoutes(path: string): RouteDef[] {
  let assets: Map<string, PackageAsset> | undefined;
  const load = () =>
    (assets ??= new Map(
      [
        packageAsset('react', 'umd/react.production.min.js', 'application/javascript; charset=utf-8', 'react.js'),
        packageAsset('react-dom', 'umd/react-dom.production.min.js', 'application/javascript; charset=utf-8', 'react-dom.js'),
        packageAsset('graphiql', 'graphiql.min.js', 'application/javascript; charset=utf-8', 'graphiql.js'),
        packageAsset('graphiql', 'graphiql.min.css', 'text/css; charset=utf-8', 'graphiql.css'),
      ].map((a) => [a.name, a]),
    ));
  const base = `${path}/assets`;
  const page = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>GraphiQL · Portico</title>
<style>html,body,#graphiql{height:100%;margin:0}</style>
<link rel="stylesheet" href="${base}/graphiql.css">
</head>
<body>
<div id="graphiql">Loading GraphiQL…</div>
<script src="${base}/react.js"></script>
<script src="${base}/react-dom.js"></script>
<script src="${base}/graphiql.js"></script>
<script>
  const fetcher = GraphiQL.createFetcher({ url: ${JSON.stringify(path)} });
  ReactDOM.createRoot(document.getElementById('graphiql')).render(React.createElement(GraphiQL, { fetcher }));
</script>
</body>
</html>`;
  return [
    { method: 'GET', path, handler: () => ({ status: 200, type: 'text/html; charset=utf-8', body: page }) },
    {
      method: 'GET',
      path: `${base}/:file`,
      handler: (req) => {
        const asset = load().get(req.params.file ?? '');
        return asset
          ? { status: 200, type: asset.type, body: asset.body, headers: { 'Cache-Control': 'public, max-age=3600' } }
          : { status: 404, type: 'text/plain; charset=utf-8', body: 'not found' };
      },
    },
  ];
}
