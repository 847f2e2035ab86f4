import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Liquid, type FS } from 'liquidjs';
import type { RenderedMail } from '../../ports/mail-templates.js';
import { DEFAULT_MAIL_SUBJECTS, DEFAULT_MAIL_TEMPLATES } from './default-mail-templates.js';

/** Options of {@link renderMailTemplate}. */
export interface RenderMailTemplateOptions {
  /** Directory whose `<name>.txt` / `<name>.html` files override the built-in variants, each independently. */
  readonly dir?: string;
}

const NAME = /^[a-z0-9_-]+(?:\/[a-z0-9_-]+)*$/;
const SUBJECT_LINE = /^Subject: ([^\r\n]*)(?:\r?\n|$)/;

/**
 * Renders mail template `name` (for example `auth/email/verify_code`) with `vars`, in Liquid
 * (liquidjs): `{{ var }}` outputs are HTML-escaped in the `.html` variant and verbatim in the
 * `.txt` variant and the subject; an unknown variable renders as the empty string, and only the
 * values' own properties are read. A template may extend a layout (`{% layout 'layout/email' %}`
 * and `{% block content %}`) and include others, looked up like templates: in `dir`, else built
 * in. The subject is the `.txt` variant's first line when it starts with `Subject: ` (that line
 * and the blank lines after it are removed from the text), else the built-in default subject,
 * else `name`.
 *
 * @throws when `name` is not `[a-z0-9_-]` segments joined by `/`, or a variant exists neither in `dir` nor built in.
 */
export function renderMailTemplate(name: string, vars: Record<string, string>, options: RenderMailTemplateOptions = {}): RenderedMail {
  if (!NAME.test(name)) throw new Error(`invalid mail template name ${JSON.stringify(name)}`);
  const rawText = loadTemplate(`${name}.txt`, options.dir);
  const rawHtml = loadTemplate(`${name}.html`, options.dir);

  let subject = DEFAULT_MAIL_SUBJECTS[name] ?? name;
  let body = rawText;
  const subjectLine = SUBJECT_LINE.exec(rawText);
  if (subjectLine) {
    subject = subjectLine[1] ?? '';
    body = rawText.slice(subjectLine[0].length).replace(/^(?:[ \t]*\r?\n)+/, '');
  }
  const { text, html } = engines(options.dir);
  return {
    // A subject is one header line: a value carrying a line break must not start another one.
    subject: text.parseAndRenderSync(subject, vars).replace(/[\r\n]+/g, ' ').trim(),
    text: text.parseAndRenderSync(body, vars),
    html: html.parseAndRenderSync(rawHtml, vars),
  };
}

/** A template's source: the file in `dir`, else the built-in one. */
function readTemplate(file: string, dir: string | undefined): string | undefined {
  if (dir !== undefined) {
    try {
      return readFileSync(join(dir, file), 'utf8').replace(/^\uFEFF/, '');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
    }
  }
  return DEFAULT_MAIL_TEMPLATES[file];
}

function loadTemplate(file: string, dir: string | undefined): string {
  const source = readTemplate(file, dir);
  if (source === undefined) throw new Error(`mail template ${file} not found`);
  return source;
}

/** The two engines of a template directory (text: verbatim, html: escaped), made once per directory. */
const ENGINES = new Map<string, { text: Liquid; html: Liquid }>();

function engines(dir: string | undefined): { text: Liquid; html: Liquid } {
  const key = dir ?? '';
  let found = ENGINES.get(key);
  if (!found) {
    // Layouts and includes resolve like templates: a name, not a path (`layout/email`), in `dir` else built in.
    const fs = (ext: string): FS => {
      const known = (file: string) => NAME.test(file.slice(0, -ext.length)) && readTemplate(file, dir) !== undefined;
      const read = (file: string) => {
        if (!NAME.test(file.slice(0, -ext.length))) throw new Error(`invalid mail template name ${JSON.stringify(file)}`);
        return loadTemplate(file, dir);
      };
      return { existsSync: known, exists: async (file) => known(file), readFileSync: read, readFile: async (file) => read(file), resolve: (_root, file) => (file.endsWith(ext) ? file : `${file}${ext}`), containsSync: () => true, contains: async () => true };
    };
    const common = { root: [''], layouts: [''], partials: [''], strictFilters: true, ownPropertyOnly: true, relativeReference: false, cache: false };
    found = { text: new Liquid({ ...common, fs: fs('.txt'), extname: '.txt' }), html: new Liquid({ ...common, fs: fs('.html'), extname: '.html', outputEscape: 'escape' }) };
    ENGINES.set(key, found);
  }
  return found;
}
