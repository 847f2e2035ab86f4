/**
 * The guide's TypeScript examples compile, as written, under the repo's strict tsconfig.
 *
 * How it works:
 * - Every ```ts block (fence at the start of a line) of README.md, docs/guide/*.md and docs/*.md is checked.
 *   ``` / ```sh / ```js blocks (shell transcripts, browser snippets) are not.
 * - The blocks of one markdown file form ONE module, in order, so a block may use what an earlier
 *   block of the same page declared. The module mirrors the page line for line (every line outside
 *   a ```ts block is left blank), so a diagnostic's line is the markdown line: `auth.md:12: …`.
 * - ES imports are hoisted, so a block may import what it uses even when an earlier block already
 *   did: a name imported a second time from the same module is dropped from the later import.
 * - ```ts file=src/library.ts puts a block in a module of its own at that path (relative to the
 *   page's own folder of modules), so another block can `import … from '../src/library.js'` it,
 *   as a host app's test imports its source.
 * - A line that must not compile is shown with `// @ts-expect-error: why` above it (checked: the
 *   error must happen). ```ts nocheck skips a whole block: only for pseudo-code, and rarely.
 * - `portico` and `portico/testing` resolve to src/index.ts and src/testing.ts (compilerOptions
 *   `paths`); other packages resolve from the repo's node_modules. A page's `src/api.ts`, unless a
 *   block writes it, is the reference app's generated client (examples/reference/client/api.ts),
 *   as `npx portico gen-client --out src/api.ts` writes it.
 *
 * The modules are never written to disk: a compiler host serves them from memory, at paths under
 * tests/.guide-examples/ (inside the repo, so node_modules and package.json's "type": "module"
 * apply; nothing there for tsc -p or eslint to pick up). One ts.Program checks them all, with the
 * compilerOptions of tsconfig.json.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const markdownIn = (dir: string) => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.md')).sort().map((f) => `${dir}/${f}`);
const PAGES = ['README.md', ...markdownIn('docs/guide'), ...markdownIn('docs')];
const OUT = join(ROOT, 'tests/.guide-examples');

interface Block {
  /** 0-based line of the block's first code line in the page. */
  readonly start: number;
  readonly lines: readonly string[];
  readonly file: string | undefined;
}

/** The ```ts blocks of a page, without those marked nocheck. */
function tsBlocks(markdown: string): { blocks: Block[]; lineCount: number } {
  const lines = markdown.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^```(\S*)\s*(.*)$/.exec(lines[i] ?? '');
    if (!open) continue;
    let end = i + 1;
    while (end < lines.length && !/^```\s*$/.test(lines[end] ?? '')) end++;
    const words = (open[2] ?? '').split(/\s+/).filter(Boolean);
    if ((open[1] === 'ts' || open[1] === 'typescript') && !words.includes('nocheck')) {
      const file = words.find((w) => w.startsWith('file='))?.slice('file='.length);
      blocks.push({ start: i + 1, lines: lines.slice(i + 1, end), file });
    }
    i = end;
  }
  return { blocks, lineCount: lines.length };
}

/**
 * A block's code with the names an earlier block of the same module imported dropped from its
 * imports (an import left with no name becomes blank lines: the line count stays).
 */
function dedupeImports(code: string, imported: Set<string>): string {
  const source = ts.createSourceFile('block.ts', code, ts.ScriptTarget.ES2022, true);
  let out = '';
  let at = 0;
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement)) continue;
    const from = statement.moduleSpecifier.getText(source);
    const clause = statement.importClause;
    let dropped = false;
    const fresh = (key: string): boolean => {
      if (imported.has(key)) return !(dropped = true);
      imported.add(key);
      return true;
    };
    const parts: string[] = [];
    if (!clause) fresh(`${from} (side effect)`);
    else {
      if (clause.name && fresh(`${from} default ${clause.name.text}`)) parts.push(clause.name.text);
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) {
        if (fresh(`${from} * ${bindings.name.text}`)) parts.push(`* as ${bindings.name.text}`);
      } else if (bindings) {
        const named = bindings.elements.filter((spec) => fresh(`${from} ${(spec.propertyName ?? spec.name).text} ${spec.name.text}`));
        if (named.length > 0) parts.push(`{ ${named.map((spec) => spec.getText(source)).join(', ')} }`);
      }
    }
    if (!dropped) continue;
    const rewritten = parts.length === 0 ? '' : `import ${clause?.isTypeOnly ? 'type ' : ''}${parts.join(', ')} from ${from};`;
    const lineBreaks = statement.getText(source).split('\n').length - 1;
    out += code.slice(at, statement.getStart(source)) + rewritten + '\n'.repeat(lineBreaks);
    at = statement.getEnd();
  }
  return out + code.slice(at);
}

/** The page's modules: path → text, each mirroring the page line for line. */
function modulesOf(page: string): Map<string, string> {
  const { blocks, lineCount } = tsBlocks(readFileSync(join(ROOT, page), 'utf8'));
  const dir = join(OUT, page.replace(/\//g, '__').replace(/\.md$/, ''));
  const modules = new Map<string, { lines: string[]; imported: Set<string> }>();
  for (const block of blocks) {
    const path = join(dir, block.file ?? 'page.ts');
    let module = modules.get(path);
    if (!module) modules.set(path, (module = { lines: Array<string>(lineCount).fill(''), imported: new Set() }));
    const code = dedupeImports(block.lines.join('\n'), module.imported).split('\n');
    code.forEach((line, n) => (module.lines[block.start + n] = line));
  }
  return new Map([...modules].map(([path, m]) => [path, m.lines.join('\n')]));
}

function compilerOptions(): ts.CompilerOptions {
  const configPath = join(ROOT, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, (p) => ts.sys.readFile(p));
  if (config.error) throw new Error(ts.flattenDiagnosticMessageText(config.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT, undefined, configPath);
  return {
    ...parsed.options,
    noEmit: true,
    declaration: false,
    sourceMap: false,
    moduleDetection: ts.ModuleDetectionKind.Force, // a page without imports is a module too, not a script sharing globals
    paths: { portico: [join(ROOT, 'src/index.ts')], 'portico/testing': [join(ROOT, 'src/testing.ts')] },
  };
}

/** page → its diagnostics as `page:line: message`. */
function checkPages(): Map<string, string[]> {
  const files = new Map<string, { page: string; text: string }>();
  for (const page of PAGES) for (const [path, text] of modulesOf(page)) files.set(path, { page, text });
  const options = compilerOptions();
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  const client = (p: string) => (p.startsWith(OUT) && p.endsWith('/src/api.ts') ? join(ROOT, 'examples/reference/client/api.ts') : p);
  host.fileExists = (p) => files.has(p) || fileExists.call(host, client(p));
  host.readFile = (p) => files.get(p)?.text ?? readFile.call(host, client(p));
  host.directoryExists = (d) => [...files.keys()].some((p) => p.startsWith(d + '/')) || (directoryExists?.call(host, d) ?? true);
  host.getSourceFile = (p, language, onError, create) => {
    const virtual = files.get(p);
    return virtual ? ts.createSourceFile(p, virtual.text, language) : getSourceFile.call(host, client(p), language, onError, create);
  };
  if (files.size === 0) throw new Error('no ```ts block found: is the fence pattern still right?');
  const program = ts.createProgram({ rootNames: [...files.keys()], options, host });
  const byPage = new Map<string, string[]>(PAGES.map((page) => [page, []]));
  const general = [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()];
  if (general.length > 0) throw new Error(general.map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n')).join('\n'));
  for (const [path, { page }] of files) {
    const source = program.getSourceFile(path);
    if (!source) throw new Error(`${relative(ROOT, path)} is not in the program`);
    for (const d of [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)]) {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line + 1;
      byPage.get(page)?.push(`${page}:${line}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n  ')}`);
    }
  }
  return byPage;
}

describe("the guide's TypeScript examples compile as they stand", () => {
  let diagnostics: Map<string, string[]>;
  beforeAll(() => {
    diagnostics = checkPages();
  }, 60_000);

  it.each(PAGES)('%s', (page) => {
    expect(diagnostics.get(page)?.join('\n') ?? '').toBe('');
  });
});
