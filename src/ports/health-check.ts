/** What a readiness check reports; `reason` must be generic (no hostnames, no driver text). */
export type HealthCheckResult = { readonly status: 'ok' } | { readonly status: 'fail'; readonly reason: string };

/**
 * A readiness check. Resolving with nothing means ok; throwing means fail with the generic
 * reason "unavailable" (the error text is logged, never returned).
 */
export type HealthCheck = () => Promise<HealthCheckResult | void>;
