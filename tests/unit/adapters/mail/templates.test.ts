import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_MAIL_TEMPLATES } from '../../../../src/adapters/mail/default-mail-templates.js';
import { renderMailTemplate } from '../../../../src/adapters/mail/templates.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'portico-mail-'));
  dirs.push(dir);
  return dir;
}

function write(dir: string, file: string, content: string): void {
  const path = join(dir, file);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, content);
}

const VARS = { code: '123456', username: 'ada', minutes: '15' };

describe('renderMailTemplate', () => {
  it('renders the built-in auth/email/verify_code template', () => {
    const mail = renderMailTemplate('auth/email/verify_code', VARS);

    expect(mail.subject).toBe('Your verification code');
    expect(mail.text).toBe(
      'Hello ada,\n\nYour verification code is 123456. It expires in 15 minutes.\n\nIf you did not ask for it, ignore this message.\n\n-- \nPortico\n',
    );
    expect(mail.html).toContain('<strong>123456</strong>');
    expect(mail.html).toContain('15 minutes');
    expect(mail.html).not.toContain('{{');
  });

  it('wraps every built-in mail in the layout, which a host overrides by name like any template', () => {
    expect(renderMailTemplate('auth/email/password_reset', { username: 'ada', link: 'https://x/?token=t&a=1', minutes: '60', site: 'Shop' }).html).toMatch(
      /^<!doctype html>[\s\S]*href="https:\/\/x\/\?token=t&amp;a=1"[\s\S]*— Shop<\/p>/,
    );
    const dir = tempDir();
    write(dir, 'layout/email.txt', 'ACME\n{% block content %}{% endblock %}');
    write(dir, 'layout/email.html', '<main>{% block content %}{% endblock %}</main>');
    const mail = renderMailTemplate('auth/email/verify_code', VARS, { dir });
    expect(mail.text).toMatch(/^ACME\nHello ada,/);
    expect(mail.html).toMatch(/^<main>\s*<p>Hello ada,<\/p>/);
  });

  it('refuses a layout or include named by a path rather than a name', () => {
    const dir = tempDir();
    write(dir, 'misc/evil.txt', "{% include '../../etc/passwd' %}");
    write(dir, 'misc/evil.html', '<p></p>');
    expect(() => renderMailTemplate('misc/evil', {}, { dir })).toThrow(/Failed to lookup "..\/..\/etc\/passwd"/);
  });

  it('keeps the built-in .txt starting with a Subject line', () => {
    expect(DEFAULT_MAIL_TEMPLATES['auth/email/verify_code.txt']).toMatch(/^Subject: Your verification code\n/);
  });

  it('escapes values in html and inserts them verbatim in text', () => {
    const mail = renderMailTemplate('auth/email/verify_code', { ...VARS, username: '<b>x</b>' });

    expect(mail.html).toContain('Hello &lt;b&gt;x&lt;/b&gt;,');
    expect(mail.html).not.toContain('<b>x</b>');
    expect(mail.text).toContain('Hello <b>x</b>,');
  });

  it('renders unknown placeholders as empty and does not expand placeholders inside values', () => {
    const dir = tempDir();
    write(dir, 'misc/hello.txt', 'A{{missing}}B {{ constructor }}C {{name}}');
    write(dir, 'misc/hello.html', '<p>{{   name   }}</p>');

    const mail = renderMailTemplate('misc/hello', { name: '{{ secret }}', secret: 'no' }, { dir });

    expect(mail.text).toBe('AB C {{ secret }}');
    expect(mail.html).toBe('<p>{{ secret }}</p>');
  });

  it('takes the subject from a leading Subject line, else the built-in default, else the name', () => {
    const dir = tempDir();
    write(dir, 'a/with_subject.txt', 'Subject: Hi {{ who }}\r\n\r\nBody for {{ who }}\n');
    write(dir, 'a/with_subject.html', '<p>Body</p>');
    write(dir, 'a/no_subject.txt', 'Just a body\n');
    write(dir, 'a/no_subject.html', '<p>Just a body</p>');
    write(dir, 'auth/email/verify_code.txt', 'Code: {{ code }}\n');

    const withSubject = renderMailTemplate('a/with_subject', { who: 'Ada' }, { dir });
    expect(withSubject.subject).toBe('Hi Ada');
    expect(withSubject.text).toBe('Body for Ada\n');

    const noSubject = renderMailTemplate('a/no_subject', {}, { dir });
    expect(noSubject.subject).toBe('a/no_subject');
    expect(noSubject.text).toBe('Just a body\n');

    expect(renderMailTemplate('auth/email/verify_code', VARS, { dir }).subject).toBe('Your verification code');
  });

  it('keeps a subject on one line even when a value carries line breaks', () => {
    const dir = tempDir();
    write(dir, 'x.txt', 'Subject: Hello {{ who }}\nbody');
    write(dir, 'x.html', '');

    expect(renderMailTemplate('x', { who: 'Ada\r\nBcc: evil@example.com' }, { dir }).subject).toBe('Hello Ada Bcc: evil@example.com');
  });

  it('lets a directory override the .txt variant alone, keeping the built-in html', () => {
    const dir = tempDir();
    write(dir, 'auth/email/verify_code.txt', 'Subject: Custom subject\n\nYour code: {{ code }}\n');

    const mail = renderMailTemplate('auth/email/verify_code', VARS, { dir });

    expect(mail.subject).toBe('Custom subject');
    expect(mail.text).toBe('Your code: 123456\n');
    expect(mail.html).toBe(renderMailTemplate('auth/email/verify_code', VARS).html);
  });

  it('lets a directory override the .html variant alone', () => {
    const dir = tempDir();
    write(dir, 'auth/email/verify_code.html', '<p>{{ code }}</p>');

    const mail = renderMailTemplate('auth/email/verify_code', VARS, { dir });

    expect(mail.html).toBe('<p>123456</p>');
    expect(mail.text).toBe(renderMailTemplate('auth/email/verify_code', VARS).text);
  });

  it('falls back to built-ins when the directory does not exist', () => {
    const mail = renderMailTemplate('auth/email/verify_code', VARS, { dir: join(tmpdir(), 'portico-no-such-dir-' + process.pid) });
    expect(mail.text).toContain('123456');
  });

  it('throws for a template that exists nowhere', () => {
    expect(() => renderMailTemplate('auth/email/nope', VARS)).toThrow(/mail template auth\/email\/nope\.txt not found/);
  });

  it.each(['../etc/passwd', 'auth/../../secret', '/etc/passwd', 'auth/./email', 'auth//email', 'auth/email/', 'Auth/email', 'auth\\email', 'a.txt', '', 'a\0b'])(
    'refuses the template name %j',
    (name) => {
      const dir = tempDir();
      write(dir, 'secret.txt', 'leaked');
      expect(() => renderMailTemplate(name, VARS, { dir: join(dir, 'templates') })).toThrow(/invalid mail template name/);
    },
  );
});
