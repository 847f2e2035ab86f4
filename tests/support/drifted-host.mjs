// A host app run as its own process by tests/e2e/driver-errors.test.ts (built dist/ required):
//
//   node tests/support/drifted-host.mjs <database> <before|after>
//
// `after` declares `book.pages`, which the table created by `before` lacks, and a model `review`
// whose table does not exist (the models changed, the database was not migrated). A committed listener on `shelf` misbehaves on purpose, by the name of
// the shelf written: `listener throws` throws in the listener, `unhandled rejection` leaves a
// rejected promise nobody handles, `uncaught exception` throws from a timer. PROCESS_GUARD=off
// starts the app with `processGuard: false`. Prints `listening: <url>` once it serves.
import { AllowAny, c, createApp, defineModel, graphql, health, rest } from '../../dist/src/index.js';

const [database, stage] = process.argv.slice(2);
const models = [
  defineModel('shelf', { id: c.id(), name: c.text() }),
  defineModel('book', { id: c.id(), title: c.text(), ...(stage === 'after' ? { pages: c.int().nullable() } : {}) }),
  ...(stage === 'after' ? [defineModel('review', { id: c.id(), body: c.text() })] : []),
];
const resources = rest().resource({ table: 'shelf', permission: AllowAny }).resource({ table: 'book', permission: AllowAny });
if (stage === 'after') resources.resource({ table: 'review', permission: AllowAny });
const app = createApp({ database, models, autoMigrate: true, logRequests: false, processGuard: process.env.PROCESS_GUARD !== 'off' })
  .use(health())
  .use(resources)
  .use(graphql().expose('shelf').expose('book').mutable('book'));

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
