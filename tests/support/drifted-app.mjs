// The drifted host app of tests/e2e/driver-errors.test.ts, built from a Portico module (`src` in
// the test's process, `dist` in tests/support/drifted-host.mjs): `after` declares `book.pages`,
// which the table created by `before` lacks, and a model `review` whose table does not exist.
export function driftedApp(portico, database, stage, options = {}) {
  const { AllowAny, c, createApp, defineModel, graphql, health, rest } = portico;
  const models = [
    defineModel('shelf', { id: c.id(), name: c.text() }),
    defineModel('book', { id: c.id(), title: c.text(), ...(stage === 'after' ? { pages: c.int().nullable() } : {}) }),
    ...(stage === 'after' ? [defineModel('review', { id: c.id(), body: c.text() })] : []),
  ];
  const resources = rest().resource({ table: 'shelf', permission: AllowAny }).resource({ table: 'book', permission: AllowAny });
  if (stage === 'after') resources.resource({ table: 'review', permission: AllowAny });
  return createApp({ database, models, autoMigrate: true, logRequests: false, ...options })
    .use(health())
    .use(resources)
    .use(graphql().expose('shelf').expose('book').mutable('book'));
}
