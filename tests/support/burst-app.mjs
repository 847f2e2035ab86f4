// The host app of tests/e2e/realtime-bursts.test.ts, built from a Portico module (`src` in the
// test's process, `dist` in tests/support/burst-host.mjs): a bulk-writable `item` resource whose
// every committed row is announced on the realtime channel `items` (by the writing process only,
// with `announce`: committed signals reach every process's handlers), and a channel `burst`.
// Loopback callers all share one IP, so the per-caller connection cap is raised.
export function burstApp(portico, database, events, announce = true) {
  const { AllowAny, c, createApp, defineModel, health, realtime, REALTIME_TOKEN, rest } = portico;
  const announcer = {
    name: 'announcer',
    install: (ctx) => {
      const channels = ctx.get(REALTIME_TOKEN);
      ctx.events.onCommitted('post_save', 'item', (event) => void channels.publish('items', { id: event.row.id }));
    },
  };
  return createApp({ database, events, models: [defineModel('item', { id: c.id(), name: c.text() })], autoMigrate: true, logRequests: false })
    .use(health())
    .use(rest().resource({ table: 'item', permission: AllowAny, bulk: true }))
    .use(realtime({ maxConnectionsPerCaller: 500 }).channel('items').channel('burst'))
    .use(announce ? announcer : { name: 'quiet', install: () => undefined });
}
