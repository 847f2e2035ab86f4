import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RenderedMail } from '../../ports/mail-templates.js';
import { DEFAULT_MAIL_SUBJECTS, DEFAULT_MAIL_TEMPLATES } from './default-mail-templates.js';

/** Options of {@link renderMailTemplate}. */
export interface RenderMailTemplateOptions {
  /** Directory whose `<name>.txt` / `<name>.html` files override the built-in variants, each independently. */
  readonly dir?: string;
}

const NAME = /^[a-z0-9_-]+(?:\/[a-z0-9_-]+)*$/;
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;
const SUBJECT_LINE = /^Subject: ([^\r\n]*)(?:\r?\n|$)/;

/**
 * Renders mail template `name` (for example `auth/email/verify_code`) with `vars`.
 *
 * `{{ var }}` placeholders are replaced: HTML-escaped in the `.html` variant, verbatim in the
 * `.txt` variant and the subject; unknown ones render as the empty string. The subject is the
 * `.txt` variant's first line when it starts with `Subject: ` (that line and the blank lines after
 * it are removed from the text), else the built-in default subject, else `name`.
 *
 * @throws when `name` is not `[a-z0-9_-]` segments joined by `/`, or a variant exists neither in `dir` nor built in.
 */
export function renderMailTemplate(name: string, vars: Record<string, string>, options: RenderMailTemplateOptions = {}): RenderedMail {
  if (!NAME.test(name)) throw new Error(`invalid mail template name ${JSON.stringify(name)}`);
  const rawText = loadTemplate(name, 'txt', options.dir);
  const rawHtml = loadTemplate(name, 'html', options.dir);

  let subject = DEFAULT_MAIL_SUBJECTS[name] ?? name;
  let body = rawText;
  const subjectLine = SUBJECT_LINE.exec(rawText);
  if (subjectLine) {
    subject = subjectLine[1] ?? '';
    body = rawText.slice(subjectLine[0].length).replace(/^(?:[ \t]*\r?\n)+/, '');
  }
  return {
    // A subject is one header line: a value carrying a line break must not start another one.
    subject: fill(subject, vars, (v) => v).replace(/[\r\n]+/g, ' ').trim(),
    text: fill(body, vars, (v) => v),
    html: fill(rawHtml, vars, escapeHtml),
  };
}

function loadTemplate(name: string, ext: 'txt' | 'html', dir: string | undefined): string {
  const file = `${name}.${ext}`;
  if (dir !== undefined) {
    try {
      return readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, '');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    }
  }
  const builtIn = DEFAULT_MAIL_TEMPLATES[file];
  if (builtIn === undefined) throw new Error(`mail template ${file} not found`);
  return builtIn;
}

function fill(template: string, vars: Record<string, string>, encode: (value: string) => string): string {
  return template.replace(PLACEHOLDER, (_match, key: string) => (Object.hasOwn(vars, key) ? encode(String(vars[key])) : ''));
}

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}
