import type { HttpResponse, RouteDef } from '../http-route.js';
import { rowLabel } from '../../../application/admin/list-admin-rows.js';
import { keyText } from '../../../application/rest/m2m-links.js';
import type { AdminCall } from './admin-context.js';
import { listRequest } from './list-page.js';

/** Most rows a lookup answers. */
const LOOKUP_ROWS = 20;

/**
 * `GET <prefix>/<table>/lookup?q=`: the rows of `table` whose search fields contain `q` (the list
 * page's search, with its rights and row policy: the caller must be able to view the table), as
 * `[{ key, label }]`, at most 20. It feeds the foreign-key picker of tables past 100 rows.
 */
export async function lookupRows(call: AdminCall): Promise<HttpResponse> {
  const { model, options, policy } = call.entry('view');
  const q = typeof call.req.query.q === 'string' ? call.req.query.q.slice(0, 200) : '';
  const result = await call.deps.list.execute(model, call.identity, options, policy, listRequest({ q }, options.ordering), []);
  const body = result.rows.slice(0, LOOKUP_ROWS).map((row) => ({ key: keyText(row[model.primaryKey]), label: rowLabel(model, row) }));
  return { status: 200, headers: { 'cache-control': 'no-store' }, body };
}

/**
 * The picker's script (progressive enhancement: without it the field is a typed key with a
 * datalist of the first rows). As the user types, it asks the lookup for matching rows and
 * offers them in the field's datalist. Served, not inline, so it works under a strict CSP.
 */
const PICKER_JS = `document.querySelectorAll('input[data-lookup]').forEach(function (input) {
  var list = document.getElementById(input.getAttribute('list'));
  var timer, seq = 0;
  input.addEventListener('input', function () {
    clearTimeout(timer);
    timer = setTimeout(function () {
      var mine = ++seq;
      fetch(input.getAttribute('data-lookup') + '?q=' + encodeURIComponent(input.value), { credentials: 'same-origin', headers: { accept: 'application/json' } })
        .then(function (res) { return res.ok ? res.json() : []; })
        .then(function (rows) {
          if (mine !== seq || !list) return;
          list.replaceChildren.apply(list, rows.map(function (r) { var o = document.createElement('option'); o.value = r.key; o.textContent = r.label; return o; }));
        })
        .catch(function () {});
    }, 150);
  });
});
`;

/** `GET <prefix>/picker.js`. */
export function pickerScriptRoute(prefix: string): RouteDef {
  return { method: 'GET', path: `${prefix}/picker.js`, handler: () => ({ status: 200, type: 'text/javascript; charset=utf-8', headers: { 'cache-control': 'no-cache' }, body: PICKER_JS }) };
}
