import type * as Portico from '../../src/index.js';

/** See drifted-app.mjs. */
export function driftedApp(portico: typeof Portico, database: string, stage: 'before' | 'after', options?: Partial<Portico.AppOptions>): Portico.PorticoApp;
