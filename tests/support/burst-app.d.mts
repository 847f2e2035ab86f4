import type * as Portico from '../../src/index.js';

/** See burst-app.mjs. */
export function burstApp(portico: typeof Portico, database: string, events: 'memory' | 'postgresql' | { readonly redis: string }, announce?: boolean): Portico.PorticoApp;
