import { CSRF_FIELD } from '../csrf-middleware.js';
import type { HttpRequest } from '../http-route.js';
import { html } from './html.js';
import type { SafeHtml } from '../safe-html.js';

/** The hidden CSRF input of every admin form (the security plugin's signed double-submit token). */
export function csrfInput(req: HttpRequest): SafeHtml {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${req.csrfToken ?? ''}">`;
}
