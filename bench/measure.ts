/**
 * One autocannon measurement: a 1 s warm-up whose numbers are discarded, then 5 s of load
 * with 10 connections. Throws when any request failed (connection error, timeout, non-2xx).
 */
import autocannon from 'autocannon';

export const WARMUP_SECONDS = 1;
export const DURATION_SECONDS = 5;
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

async function fire(url: string, duration: number): Promise<autocannon.Result> {
  return autocannon({ url, connections: CONNECTIONS, duration, pipelining: 1, timeout: 10 });
}

function assertClean(label: string, result: autocannon.Result): void {
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0 || result.requests.total === 0) {
    throw new Error(
      `${label}: ${result.requests.total} requests, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

/** Warms `url` up, then measures it. */
export async function measure(label: string, url: string): Promise<Measurement> {
  assertClean(`${label} (warm-up)`, await fire(url, WARMUP_SECONDS));
  const result = await fire(url, DURATION_SECONDS);
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
