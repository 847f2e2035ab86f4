// A host app run as its own process by tests/e2e/driver-errors.test.ts (built dist/ required):
//
//   node tests/support/drifted-host.mjs <database> <before|after>
//
// The app is tests/support/drifted-app.mjs's (the models changed, the database was not
// migrated). A committed listener on `shelf` misbehaves on purpose, by the name of
// the shelf written: `listener throws` throws in the listener, `unhandled rejection` leaves a
// rejected promise nobody handles, `uncaught exception` throws from a timer. PROCESS_GUARD=off
// starts the app with `processGuard: false`. Prints `listening: <url>` once it serves.
import * as portico from '../../dist/src/index.js';
import { driftedApp } from './drifted-app.mjs';

const [database, stage] = process.argv.slice(2);
const app = driftedApp(portico, database, stage, { processGuard: process.env.PROCESS_GUARD !== 'off' });

const { url } = await app.listen(0);
app.events.onCommitted('post_save', 'shelf', (event) => {
  const name = event.row.name;
  if (name === 'listener throws') throw new Error('a committed listener failed');
  if (name === 'unhandled rejection') void Promise.reject(new Error('a rejection nobody handles'));
  if (name === 'uncaught exception') {
    setTimeout(() => {
      throw new Error('an exception nobody catches');
    }, 0);
  }
});
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
console.log(`listening: ${url}`);
