import { randomUUID } from 'node:crypto';

const REQUEST_ID = /^[\w.-]{1,64}$/;

/** A request's id: the caller's `X-Request-Id` when well-formed (1-64 of `[A-Za-z0-9_.-]`), else a new UUID. */
export function requestIdOf(incoming: string | string[] | undefined): string {
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
}
