import { escapeHtml, SafeHtml } from '../safe-html.js';

/** What may be interpolated into {@link html}: text is escaped, SafeHtml is kept, lists are joined, null/false render nothing. */
export type Part = string | number | boolean | null | undefined | SafeHtml | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof SafeHtml) return part.html;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/**
 * The admin's only way to build HTML: every interpolated value is escaped unless it is already
 * SafeHtml (built by this same function), so no stored value reaches a page unescaped.
 *
 * @example
 * html`<td>${row.title}</td>`; // <td>&lt;script&gt;…</td>
 */
export function html(strings: TemplateStringsArray, ...parts: Part[]): SafeHtml {
  let out = strings[0] ?? '';
  parts.forEach((p, i) => {
    out += render(p) + (strings[i + 1] ?? '');
  });
  return new SafeHtml(out);
}

/** The first value of a query parameter given once or repeated. */
export const firstParam = (v: string | string[] | undefined): string | undefined => (Array.isArray(v) ? v[0] : v);

/** A page number as the admin's lists read `p`: a positive whole number, else 1. */
export function pageParam(raw: string | undefined): number {
  const page = Number.parseInt(raw || '1', 10);
  return Number.isSafeInteger(page) && page > 0 ? page : 1;
}

/** A query string from parameters (empty values dropped), starting with `?` when not empty. */
export function queryString(params: Readonly<Record<string, string | number | undefined>>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The admin's stylesheet: small, inline (no CDN, no web font), readable at phone width. */
export const ADMIN_CSS = `
*{box-sizing:border-box}body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:#1d2430;background:#f6f7f9}
header{background:#24324a;color:#fff;padding:.6rem 1rem;display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
header a{color:#fff}header .brand{font-weight:700;text-decoration:none}header form{margin:0 0 0 auto}
main{max-width:72rem;margin:0 auto;padding:1rem}a{color:#1f5fbf}a:focus,button:focus,input:focus,select:focus,textarea:focus{outline:3px solid #f0b429;outline-offset:1px}
.crumbs{font-size:.9rem;margin-bottom:.5rem}h1{font-size:1.4rem;margin:.2rem 0 1rem}h2{font-size:1.1rem}
table{border-collapse:collapse;width:100%;background:#fff}th,td{text-align:left;padding:.4rem .5rem;border-bottom:1px solid #dde1e6;vertical-align:top}
.table-wrap{overflow-x:auto}.group{background:#fff;border:1px solid #dde1e6;border-radius:4px;margin-bottom:1rem;padding:.5rem 1rem}
.layout{display:flex;flex-wrap:wrap;gap:1rem}.layout>.results{flex:1 1 30rem;min-width:0}.layout>aside{flex:0 1 14rem;background:#fff;border:1px solid #dde1e6;padding:.5rem 1rem}
aside ul{list-style:none;padding:0;margin:0 0 .8rem}aside li a[aria-current]{font-weight:700;color:#1d2430}
.field{margin:0 0 .9rem}.field label,.field .label{display:block;font-weight:600}.field input[type=text],.field input[type=number],.field input[type=date],.field input[type=datetime-local],.field input[type=password],.field select,.field textarea{width:100%;max-width:36rem;font:inherit;padding:.35rem}
.field textarea{min-height:6rem}.help{color:#5a6472;font-size:.85rem}.error,.errorlist{color:#b00020}.errorlist{margin:.2rem 0;padding-left:1.2rem}
.field.has-error input,.field.has-error textarea,.field.has-error select{border:2px solid #b00020}
button,.button{font:inherit;padding:.4rem .9rem;border:1px solid #1f5fbf;background:#1f5fbf;color:#fff;border-radius:3px;cursor:pointer;text-decoration:none;display:inline-block}
.button.secondary,button.secondary{background:#fff;color:#1f5fbf}button.danger,.button.danger{background:#b00020;border-color:#b00020}
.actions{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:.8rem 0}.search{display:flex;gap:.4rem;flex-wrap:wrap;margin-bottom:.8rem}.search input{flex:1 1 12rem;font:inherit;padding:.35rem}
.paginator{margin:.8rem 0}.readonly{padding:.35rem 0}.flash{background:#e7f4e4;border:1px solid #9bc59a;padding:.5rem 1rem}.flash.error{background:#fdecee;border-color:#e3a3ab}
td.error details pre{white-space:pre-wrap;overflow-wrap:anywhere;margin:.3rem 0;font:inherit}td form{margin:0}
.checks{border:0;padding:0;margin:0}.checks label{font-weight:400;display:inline-block;margin-right:1rem}
@media (max-width:40rem){main{padding:.5rem}th,td{padding:.3rem}header form{margin:0}}
`;

/**
 * The admin page frame: a header with the user and log-out form (none for an anonymous caller,
 * `username: null`), breadcrumbs, the title and the body. `script: false` leaves out the
 * foreign-key picker's script (the login page loads none).
 */
export function layout(options: { title: string; prefix: string; username: string | null; logout: SafeHtml; crumbs: readonly [string, string | null][]; body: SafeHtml; flash?: SafeHtml; script?: boolean }): string {
  const crumbs = options.crumbs.map(([label, href], i) => html`${i > 0 ? ' › ' : ''}${href ? html`<a href="${href}">${label}</a>` : label}`);
  const user = options.username === null ? '' : html`<span>Signed in as <strong>${options.username}</strong></span>${options.logout}`;
  return html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Portico admin</title>
<style>${new SafeHtml(ADMIN_CSS)}</style>
${options.script === false ? '' : html`<script src="${options.prefix}/picker.js" defer></script>
`}</head>
<body>
<header><a class="brand" href="${options.prefix}/">Portico admin</a>${user}</header>
<main id="content">
${crumbs.length > 0 ? html`<nav class="crumbs" aria-label="Breadcrumbs">${crumbs}</nav>` : ''}
${options.flash ?? ''}
<h1>${options.title}</h1>
${options.body}
</main>
</body>
</html>`.html;
}
