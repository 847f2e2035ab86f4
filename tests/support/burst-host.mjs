// tests/support/burst-app.mjs as its own process (built dist/ required):
//
//   node tests/support/burst-host.mjs <database> <postgresql|redis://…>
//
// It announces nothing itself (the test's process writes). Prints `listening: <url>` once it
// serves; SIGTERM closes it.
import * as portico from '../../dist/src/index.js';
import { burstApp } from './burst-app.mjs';

const [database, bus] = process.argv.slice(2);
const app = burstApp(portico, database, bus === 'postgresql' ? 'postgresql' : { redis: bus }, false);
const { url } = await app.listen(0);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
console.log(`listening: ${url}`);
