import { CheckReadiness, type NamedCheck } from '../../application/check-readiness.js';
import { CheckSchema } from '../../application/check-schema.js';
import type { HttpResponse } from '../../adapters/http-koa/index.js';
import type { HealthCheck } from '../../ports/health-check.js';
import type { Plugin, PluginContext } from '../plugin.js';

export interface HealthOptions {
  /** Per-check timeout in milliseconds (default 5000). */
  readonly timeoutMs?: number;
  /** Fail readiness while migrations are pending (default false: the gate is opt-in). */
  readonly migrationGate?: boolean;
}

const NO_STORE = { 'Cache-Control': 'no-store' };

/**
 * The health plugin (SPEC "Health probes", DESIGN §3 "health"): `GET /healthz` answers 200
 * without touching the database; `GET /ready` and `/readyz` run the database probe (which fails,
 * naming it, while the schema differs from the models), the opt-in migration gate and every
 * added check in parallel.
 *
 * @example
 * app.use(health({ migrationGate: true }).check('cache', async () => { await redis.ping(); }));
 */
export class HealthPlugin implements Plugin {
  readonly name = 'health';
  private readonly extra: NamedCheck[] = [];

  constructor(private readonly options: HealthOptions = {}) {}

  /** Adds a readiness check; throw (or return `{status: 'fail', reason}`) to fail it. */
  check(name: string, check: HealthCheck): this {
    this.extra.push({ name, check });
    return this;
  }

  install(ctx: PluginContext): void {
    // The database is ready when it answers and holds the schema the models describe.
    const schema = new CheckSchema(ctx.registry, ctx.migrations);
    ctx.addHealthCheck('database', async () => {
      await ctx.store.ping();
      const drift = await schema.summary();
      return drift === undefined ? { status: 'ok' } : { status: 'fail', reason: drift };
    });
    if (this.options.migrationGate) {
      ctx.addHealthCheck('migrations', async () => {
        const pending = (await ctx.migrations.pending()).length;
        return pending === 0 ? { status: 'ok' } : { status: 'fail', reason: `${pending} migrations pending` };
      });
    }
    for (const { name, check } of this.extra) ctx.addHealthCheck(name, check);
    const readiness = new CheckReadiness(
      () => ctx.healthChecks(),
      this.options.timeoutMs ?? 5000,
      () => ctx.isDraining(),
      (name, err) => ctx.logger.warn({ check: name, err }, 'readiness check failed'),
    );
    const ready = async (): Promise<HttpResponse> => {
      const report = await readiness.execute();
      return { status: report.status === 'ok' ? 200 : 503, body: report, headers: NO_STORE };
    };
    // Probes skip the session, CSRF and header middleware: they read no cookie and must stay cheap.
    ctx.route({ method: 'GET', path: '/healthz', early: true, handler: () => ({ status: 200, body: { status: 'ok' }, headers: NO_STORE }) });
    ctx.route({ method: 'GET', path: '/ready', early: true, handler: ready });
    ctx.route({ method: 'GET', path: '/readyz', early: true, handler: ready });
    ctx.advertise({ group: 'health', name: 'liveness', method: 'GET', path: '/healthz', label: 'Liveness probe' });
    ctx.advertise({ group: 'health', name: 'readiness', method: 'GET', path: '/ready', label: 'Readiness probe' });
    ctx.advertise({ group: 'health', name: 'readiness-alias', method: 'GET', path: '/readyz', label: 'Readiness probe (alias)' });
  }
}

/** Creates the health plugin. */
export function health(options: HealthOptions = {}): HealthPlugin {
  return new HealthPlugin(options);
}
