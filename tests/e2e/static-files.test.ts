import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp, staticFiles, type PorticoApp } from '../../src/index.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { ROOT, runNode } from '../support/spawn-node.js';

/**
 * Issue 51, static files: the reference app's `/static/site.css` with ETag, Last-Modified, 304
 * and byte ranges (REFERENCE-APP "Storage"), paths that try to leave the folder, and a host app
 * whose `portico collectstatic` writes hashed names (immutable for a year) and Brotli and gzip
 * copies served to clients that accept them.
 */
const SITE_CSS = readFileSync(join(ROOT, 'examples/reference/static/site.css'));

/** One request with its path and headers sent exactly as written (fetch would normalise `..`, and adds `Cache-Control: no-cache` to a conditional request). */
function raw(base: string, path: string, method = 'GET', headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method, headers }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString('latin1')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('static files of the reference app', () => {
  let ref: RunningReference;
  beforeAll(async () => {
    ref = await startReference('sqlite');
  });
  afterAll(() => ref?.close());

  it('serves site.css with its type, validators, ranges advertised and the hardening headers', async () => {
    const res = await ref.get('/static/site.css');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(res.headers.get('etag')).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/);
    expect(res.headers.get('last-modified')).toMatch(/GMT$/);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-length')).toBe(String(SITE_CSS.length));
    expect(Buffer.from(await res.arrayBuffer())).toEqual(SITE_CSS);
  });

  it('answers 304 to a matching If-None-Match or a later If-Modified-Since, with no body', async () => {
    const first = await ref.get('/static/site.css');
    const etag = first.headers.get('etag') ?? '';
    for (const headers of [{ 'if-none-match': etag }, { 'if-modified-since': first.headers.get('last-modified') ?? '' }] as Record<string, string>[]) {
      expect(await raw(ref.url, '/static/site.css', 'GET', headers)).toEqual({ status: 304, body: '' });
    }
    expect((await raw(ref.url, '/static/site.css', 'GET', { 'if-none-match': '"other"' })).status).toBe(200);
    // A client that asks for no cached copy gets the file (send's rule).
    expect((await raw(ref.url, '/static/site.css', 'GET', { 'if-none-match': etag, 'cache-control': 'no-cache' })).status).toBe(200);
  });

  it('serves one byte range (206), a suffix range, refuses an unsatisfiable one (416) and answers several with the whole file', async () => {
    const part = await ref.get('/static/site.css', { headers: { range: 'bytes=0-9' } });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 0-9/${SITE_CSS.length}`);
    expect(Buffer.from(await part.arrayBuffer())).toEqual(SITE_CSS.subarray(0, 10));
    const tail = await ref.get('/static/site.css', { headers: { range: 'bytes=-5' } });
    expect(Buffer.from(await tail.arrayBuffer())).toEqual(SITE_CSS.subarray(-5));
    const beyond = await ref.get('/static/site.css', { headers: { range: `bytes=${SITE_CSS.length + 10}-` } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${SITE_CSS.length}`);
    const several = await ref.get('/static/site.css', { headers: { range: 'bytes=0-1,50-60' } });
    expect(several.status).toBe(200);
    expect((await several.arrayBuffer()).byteLength).toBe(SITE_CSS.length);
  });

  it('honours If-Range: the current tag gives the range, a stale one the whole file', async () => {
    const etag = (await ref.get('/static/site.css')).headers.get('etag') ?? '';
    expect((await ref.get('/static/site.css', { headers: { range: 'bytes=0-3', 'if-range': etag } })).status).toBe(206);
    expect((await ref.get('/static/site.css', { headers: { range: 'bytes=0-3', 'if-range': '"stale"' } })).status).toBe(200);
  });

  it('answers HEAD with the length and no body', async () => {
    const res = await raw(ref.url, '/static/site.css', 'HEAD');
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
  });

  it('never serves a file outside the folder, a dotfile or a NUL path; a malformed escape is 400', async () => {
    const outside = readFileSync(join(ROOT, 'package.json'), 'latin1').slice(0, 40);
    for (const path of [
      '/static/../package.json',
      '/static/%2e%2e/package.json',
      '/static/..%2fpackage.json',
      '/static/%2e%2e%2f%2e%2e%2f%2e%2e%2fpackage.json',
      '/static/..%5c..%5cpackage.json',
      '/static//etc/passwd',
      '/static/%2fetc%2fpasswd',
      '/static/site.css%00',
      '/static/%00',
      '/static/.gitignore',
      '/static/./site.css',
      '/static/%252e%252e/package.json',
      '/static/',
    ]) {
      const res = await raw(ref.url, path);
      expect([400, 404], path).toContain(res.status);
      expect(res.body, path).not.toContain(outside);
    }
    expect((await raw(ref.url, '/static/%E0%A4%A')).status).toBe(400);
    expect((await ref.get('/static/missing.css')).status).toBe(404);
  });
});

describe('portico collectstatic and the collected folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'portico-static-'));
  const source = join(dir, 'static');
  const root = join(dir, 'collected');
  const css = Buffer.from(`${'body { color: #123456; margin: 0 auto; }\n'.repeat(40)}`);
  const png = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
  let app: PorticoApp;
  let url: string;

  beforeAll(async () => {
    mkdirSync(join(source, 'js'), { recursive: true });
    writeFileSync(join(source, 'app.css'), css);
    writeFileSync(join(source, 'logo.png'), png);
    writeFileSync(join(source, 'js', 'main.js'), 'console.log("hi");\n'.repeat(30));
    writeFileSync(join(source, 'plain.txt'), 'x'.repeat(400));
    writeFileSync(join(source, 'plain.txt.gz'), gzipSync('x'.repeat(400)));
    writeFileSync(
      join(dir, 'app.mjs'),
      `import { createApp, staticFiles } from ${JSON.stringify(join(ROOT, 'dist/src/index.js'))};\nexport default (database) => createApp({ database, logRequests: false }).use(staticFiles({ dir: ${JSON.stringify(source)}, root: ${JSON.stringify(root)} }));\n`,
    );
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const start = async (): Promise<void> => {
    await app?.close();
    app = createApp({ database: 'sqlite::memory:', logRequests: false }).use(staticFiles({ dir: source, root }));
    ({ url } = await app.listen(0));
  };

  it('serves the source folder before collecting, a .gz beside a file included', async () => {
    await start();
    expect(app.staticUrl('app.css')).toBe('/static/app.css');
    const gz = await fetch(`${url}/static/plain.txt`, { headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers.get('content-encoding')).toBe('gzip');
    expect(gz.headers.get('vary')).toBe('Accept-Encoding');
    expect(await gz.text()).toBe('x'.repeat(400));
  });

  it('collects hashed names, compressed copies and a manifest through the CLI; the server serves them immutable', async () => {
    const run = await runNode(['dist/src/cli/portico.js', 'collectstatic', '--app', join(dir, 'app.mjs'), '--db', 'sqlite::memory:']);
    expect(run.stderr).toBe('');
    expect(run.stdout).toBe(`collected 4 static files into ${root}\n`);
    const hash = createHash('sha256').update(css).digest('hex').slice(0, 12);
    const manifest = JSON.parse(readFileSync(join(root, 'staticfiles.json'), 'utf8')) as { paths: Record<string, string> };
    expect(manifest.paths['app.css']).toBe(`app.${hash}.css`);
    expect(manifest.paths['js/main.js']).toMatch(/^js\/main\.[0-9a-f]{12}\.js$/);
    expect(readdirSync(root)).toEqual(expect.arrayContaining(['app.css', `app.${hash}.css`, `app.${hash}.css.br`, `app.${hash}.css.gz`, 'logo.png']));
    expect(readdirSync(root)).not.toContain(`logo.${manifest.paths['logo.png']?.split('.')[1]}.png.br`);

    await start();
    const hashed = app.staticUrl('app.css');
    expect(hashed).toBe(`/static/app.${hash}.css`);
    const br = await fetch(`${url}${hashed}`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('vary')).toBe('Accept-Encoding');
    const raw = await new Promise<Buffer>((resolve) => {
      request(`${url}${hashed}`, { headers: { 'accept-encoding': 'br' } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve(Buffer.concat(parts)));
      }).end();
    });
    expect(brotliDecompressSync(raw)).toEqual(css);
    const gzipped = await new Promise<Buffer>((resolve) => {
      request(`${url}${hashed}`, { headers: { 'accept-encoding': 'gzip' } }, (res) => {
        expect(res.headers['content-encoding']).toBe('gzip');
        const parts: Buffer[] = [];
        res.on('data', (d: Buffer) => parts.push(d));
        res.on('end', () => resolve(Buffer.concat(parts)));
      }).end();
    });
    expect(gunzipSync(gzipped)).toEqual(css);
    const identity = await fetch(`${url}${hashed}`, { headers: { 'accept-encoding': 'identity' } });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(Buffer.from(await identity.arrayBuffer())).toEqual(css);
    // The plain name stays served, revalidated; a PNG is not compressed again.
    expect((await fetch(`${url}/static/app.css`)).headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    const logo = await fetch(`${url}/static/logo.png`, { headers: { 'accept-encoding': 'br, gzip' } });
    expect(logo.headers.get('content-encoding')).toBeNull();
    expect(logo.headers.get('content-type')).toBe('image/png');
    // The source folder is untouched.
    expect(readdirSync(source).sort()).toEqual(['app.css', 'js', 'logo.png', 'plain.txt', 'plain.txt.gz']);
  });

  it('refuses to start on a manifest it did not write', async () => {
    writeFileSync(join(root, 'staticfiles.json'), '{"version": 2}');
    const broken = createApp({ database: 'sqlite::memory:', logRequests: false }).use(staticFiles({ dir: source, root }));
    await expect(broken.start()).rejects.toThrow(/is not a manifest portico collectstatic wrote/);
    await broken.close();
  });
});
