/**
 * One autocannon measurement: a warm-up whose numbers are discarded (1 s), then the measured
 * load (5 s), with 10 connections. BENCH_WARMUP_SECONDS and BENCH_DURATION_SECONDS override
 * the two durations. Requests may be POSTs with a body. Throws when any request failed
 * (connection error, timeout, non-2xx).
 */
import autocannon from 'autocannon';

function seconds(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 1) throw new Error(`${name} must be a number of seconds >= 1`);
  return value;
}

export const WARMUP_SECONDS = seconds('BENCH_WARMUP_SECONDS', 1);
export const DURATION_SECONDS = seconds('BENCH_DURATION_SECONDS', 5);
export const CONNECTIONS = 10;

/** The numbers kept from one measured run. */
export interface Measurement {
  readonly requestsPerSecond: number;
  readonly latencyP99Ms: number;
  readonly latencyAvgMs: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly timeouts: number;
}

/** What each request of a measurement sends (GET with no body when omitted). */
export interface RequestShape {
  readonly method?: 'GET' | 'POST';
  readonly body?: string;
  readonly headers?: Readonly<Record<string, string>>;
}

async function fire(url: string, duration: number, request: RequestShape): Promise<autocannon.Result> {
  return autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    pipelining: 1,
    timeout: 10,
    method: request.method ?? 'GET',
    ...(request.body !== undefined ? { body: request.body } : {}),
    ...(request.headers ? { headers: { ...request.headers } } : {}),
  });
}

function assertClean(label: string, result: autocannon.Result): void {
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result.requests.total === 0) {
    throw new Error(
      `${label}: ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

/** Warms `url` up, then measures it, every request sent as `request` describes. */
export async function measure(label: string, url: string, request: RequestShape = {}): Promise<Measurement> {
  assertClean(`${label} (warm-up)`, await fire(url, WARMUP_SECONDS, request));
  const result = await fire(url, DURATION_SECONDS, request);
  assertClean(label, result);
  return {
    // Total over the elapsed time: autocannon's per-second average ignores the partial last second.
    requestsPerSecond: result.requests.total / (result.duration || DURATION_SECONDS),
    latencyP99Ms: result.latency.p99,
    latencyAvgMs: result.latency.average,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}
