/**
 * A small cookie-keeping HTTP client for e2e tests: it remembers Set-Cookie values, never
 * follows redirects, and knows how to fetch the CSRF token from a page and post a form with it.
 */
export class HttpClient {
  readonly cookies = new Map<string, string>();

  constructor(readonly base: string) {}

  async request(path: string, init: RequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (this.cookies.size > 0 && !headers.has('cookie')) {
      headers.set('cookie', [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    }
    const res = await fetch(`${this.base}${path}`, { ...init, headers, redirect: 'manual' });
    for (const line of res.headers.getSetCookie()) {
      const [pair = '', ...attrs] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const cleared = attrs.some((a) => /^\s*max-age=0$/i.test(a)) || value === '';
      if (cleared) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return res;
  }

  /** GETs `page` and returns the CSRF token its form carries. */
  async csrf(page = '/login'): Promise<string> {
    const html = await (await this.request(page)).text();
    const m = /name="csrf_token" value="([^"]+)"/.exec(html);
    if (!m?.[1]) throw new Error(`no csrf_token on ${page}`);
    return m[1];
  }

  /** Posts an HTML form; the CSRF token is fetched from `/login` unless given. */
  async form(path: string, fields: Record<string, string>, options: { csrf?: string | null; headers?: Record<string, string> } = {}): Promise<Response> {
    const token = options.csrf === undefined ? await this.csrf() : options.csrf;
    const body = new URLSearchParams({ ...fields, ...(token ? { csrf_token: token } : {}) });
    return this.request(path, {
      method: 'POST',
      body: body.toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded', ...options.headers },
    });
  }

  /** Sends JSON. */
  json(path: string, method: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
    return this.request(path, { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json', ...headers } });
  }

  /** The flash messages and the signed-in line of the home page. */
  async home(): Promise<{ who: string; flash: string[] }> {
    const html = await (await this.request('/')).text();
    const who = /<p id="whoami">(.*?)<\/p>/s.exec(html)?.[1]?.replace(/<[^>]+>/g, '') ?? '';
    const flash = [...html.matchAll(/<li class="flash-\w+">(.*?)<\/li>/g)].map((m) => m[1] ?? '');
    return { who, flash };
  }
}
