import type { PorticoApp } from '../../src/index.js';

/** Builds and starts an app whose tasks() plugin runs no worker in this process (the test's workers are other processes). */
export async function startWithoutWorker(build: () => PorticoApp): Promise<PorticoApp> {
  process.env.PORTICO_TASK_WORKER = '0';
  try {
    const app = build();
    await app.start();
    return app;
  } finally {
    delete process.env.PORTICO_TASK_WORKER;
  }
}
