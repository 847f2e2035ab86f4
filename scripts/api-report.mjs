// The public API report and the packaged type declarations (issue "a library a host app can adopt").
// For each entry point, API Extractor rolls the declarations tsc emitted into one .d.ts (what the
// package ships) and compares the public surface with the report checked in under api/.
//   node scripts/api-report.mjs           fails when the surface differs from the report
//   node scripts/api-report.mjs --update  rewrites the report (commit the diff)
// Needs a build first (`npm run build`).
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig } from '@microsoft/api-extractor';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const update = process.argv.includes('--update');
// The main entry first: `portico/testing`'s declarations import the shared types from it.
const ENTRIES = [
  { report: 'portico', entry: 'dist/src/index.d.ts', rollup: 'dist/portico.d.ts' },
  { report: 'portico-testing', entry: 'dist/testing.d.ts', from: 'dist/src/testing.d.ts' },
];

/**
 * `portico/testing` imports everything it shares with the main entry from `./index.js`; its
 * shipped declarations are that file importing from `portico` instead, so a host sees one
 * PorticoApp, one ModelRegistry (classes with private members are not compatible across two
 * copies, which two rollups would make).
 */
function testingEntry({ entry, from }) {
  const text = readFileSync(resolve(root, from), 'utf8');
  const local = text.match(/from '\.\.?\/(?!index\.js')[^']*'/);
  if (local) throw new Error(`${from} may import only from './index.js' (found ${local[0]})`);
  writeFileSync(resolve(root, entry), text.replaceAll("from './index.js'", "from 'portico'"));
}

function config({ report, entry, rollup }) {
  return ExtractorConfig.prepare({
    configObjectFullPath: undefined,
    packageJsonFullPath: resolve(root, 'package.json'),
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: `<projectFolder>/${entry}`,
      bundledPackages: [],
      compiler: {
        overrideTsconfig: {
          compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], types: ['node'], strict: true, skipLibCheck: true },
          files: [`${root}/${entry}`],
        },
      },
      apiReport: { enabled: true, reportFileName: `${report}.api.md`, reportFolder: '<projectFolder>/api/', reportTempFolder: '<projectFolder>/dist/api-report/' },
      docModel: { enabled: false },
      // Members tagged @internal are left out of what the package ships.
      dtsRollup: rollup ? { enabled: true, untrimmedFilePath: '', publicTrimmedFilePath: `<projectFolder>/${rollup}` } : { enabled: false },
      tsdocMetadata: { enabled: false },
      messages: {
        compilerMessageReporting: { default: { logLevel: 'warning' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: true },
          'ae-missing-release-tag': { logLevel: 'none', addToApiReportFile: false },
          'ae-internal-missing-underscore': { logLevel: 'none', addToApiReportFile: false },
        },
        tsdocMessageReporting: { default: { logLevel: 'none' } },
      },
    },
  });
}

let failed = false;
for (const entry of ENTRIES) {
  if (entry.from) testingEntry(entry);
  const result = Extractor.invoke(config(entry), { localBuild: update, showVerboseMessages: false });
  if (!result.succeeded) {
    failed = true;
    console.error(
      result.apiReportChanged
        ? `api/${entry.report}.api.md does not match the public surface of ${entry.entry}: review the change and run \`npm run api:update\`.`
        : `API Extractor failed for ${entry.entry} (${result.errorCount} errors).`,
    );
  }
}
process.exit(failed ? 1 : 0);
