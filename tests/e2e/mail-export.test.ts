import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../support/http-client.js';
import { postgresAvailable } from '../support/postgres.js';
import { startReference, type RunningReference } from '../support/reference-server.js';
import { quotedPrintable, SmtpSink, type Delivered } from '../support/smtp-sink.js';

/**
 * Issue 50, "mail templates and attachments" (REFERENCE-APP "Identity"): `POST /api/post/{id}/export/`
 * answers 202 and a task mails the caller `post-<id>.json`, byte for byte the post as
 * `GET /api/post/{id}` shows it to them, through a real SMTP server; every mail has a text and an
 * HTML part in Portico's layout.
 */
const pg = await postgresAvailable();

/** The MIME parts of a raw message: headers (lower-cased names) and decoded body. */
function parts(raw: string): { headers: Record<string, string>; body: Buffer }[] {
  const boundaries = [...raw.matchAll(/boundary="?([^";\r\n]+)"?/g)].map((m) => m[1] as string);
  const out: { headers: Record<string, string>; body: Buffer }[] = [];
  for (const boundary of boundaries) {
    for (const chunk of raw.split(`--${boundary}`).slice(1, -1)) {
      const [head = '', ...rest] = chunk.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
      const headers: Record<string, string> = {};
      for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
        const i = line.indexOf(':');
        if (i > 0) headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const text = rest.join('\n\n');
      const encoding = headers['content-transfer-encoding'] ?? '';
      const body = encoding === 'base64' ? Buffer.from(text.replace(/\s+/g, ''), 'base64') : encoding === 'quoted-printable' ? quotedPrintable(text) : Buffer.from(text);
      out.push({ headers, body });
    }
  }
  return out;
}

describe.each<'sqlite' | 'postgresql'>(['sqlite', ...(pg ? (['postgresql'] as const) : [])])('the export mail on %s', (backend) => {
  let smtp: SmtpSink;
  let ref: RunningReference;
  beforeAll(async () => {
    smtp = await SmtpSink.started();
    ref = await startReference(backend, { env: { THROTTLE: 'off', SMTP_URL: smtp.url }, realMailer: true });
  }, 60_000);
  afterAll(async () => {
    await ref?.close();
    await smtp?.close();
  });

  it('answers 202, then mails the caller post-<id>.json equal to what GET /api/post/{id} answers them, text and HTML in the layout', async () => {
    const c = new HttpClient(ref.url);
    const { token } = (await (await c.json('/api/auth/login', 'POST', { username: 'alice', password: 'alice-password-1' })).json()) as { token: string };
    const auth = { authorization: `Bearer ${token}` };
    expect((await c.json('/api/post/1/export/', 'POST', {})).status).toBe(401);
    expect((await c.json('/api/post/999999/export/', 'POST', {}, auth)).status).toBe(404);
    const answer = await c.json('/api/post/1/export/', 'POST', {}, auth);
    expect(answer.status).toBe(202);
    expect(await answer.json()).toEqual({ status: 'accepted' });
    const shown = Buffer.from(await (await c.request('/api/post/1', { headers: auth })).text());

    const mail = (await smtp.waitFor('alice@example.com', /Your export of post 1/)) as Delivered;
    expect(mail).toBeDefined();
    const all = parts(mail.raw);
    const file = all.find((p) => /filename="?post-1\.json"?/.test(p.headers['content-disposition'] ?? ''));
    expect(file?.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(file?.body.toString() ?? 'null')).toEqual(JSON.parse(shown.toString()));
    const text = all.find((p) => /^text\/plain/.test(p.headers['content-type'] ?? ''))?.body.toString() ?? '';
    const html = all.find((p) => /^text\/html/.test(p.headers['content-type'] ?? ''))?.body.toString() ?? '';
    expect(text).toMatch(/attached is post 1, "Notes on the Analytical Engine", as JSON \(post-1\.json\)\.[\s\S]*-- \r?\nPortico/);
    expect(html).toMatch(/^<!doctype html>[\s\S]*post-1\.json[\s\S]*— Portico/);
  });
});
