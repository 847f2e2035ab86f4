import type { EventBus } from '../../ports/event-bus.js';

/**
 * What keeps a long-lived stream's caller valid, as keys: `bearer:<token hash>` or
 * `session:<session token hash>`, and `user:<id>`.
 */
export type CredentialKeys = readonly string[];

/**
 * Ends what a credential opened once the credential is gone: a bearer token's row deleted (logout),
 * a session's row deleted (logout, a new login), the user deactivated or deleted. Driven by the
 * event bus's committed signals, so a change made in this process counts at once and one made in
 * another as soon as a cross-process bus delivers it. Streams (GraphQL subscriptions, realtime
 * channels) check their caller when they open; this is how they learn it no longer holds.
 *
 * @example
 * const stop = watch.watch([`bearer:${hash}`, `user:${identity.id}`], () => socket.close(4403, 'credential revoked'));
 * socket.once('close', stop);
 */
export class CredentialWatch {
  private readonly watchers = new Map<string, Set<() => void>>();
  private watching = 0;

  constructor(events: EventBus) {
    events.onCommitted('post_delete', 'auth_token', (event) => this.end(`bearer:${String(event.row.token_hash)}`));
    events.onCommitted('post_delete', 'session', (event) => this.end(`session:${String(event.row.token_hash)}`));
    events.onCommitted('post_save', 'auth_user', (event) => {
      if (event.row.is_active !== true) this.end(`user:${String(event.row.id)}`);
    });
    events.onCommitted('post_delete', 'auth_user', (event) => this.end(`user:${String(event.row.id)}`));
  }

  /** Calls `ended` once, when any of `keys` is revoked; the returned function stops watching. */
  watch(keys: CredentialKeys, ended: () => void): () => void {
    let live = true;
    this.watching++;
    const stop = (): void => {
      if (!live) return;
      live = false;
      this.watching--;
      for (const key of keys) {
        const set = this.watchers.get(key);
        set?.delete(fire);
        if (set?.size === 0) this.watchers.delete(key);
      }
    };
    const fire = (): void => {
      if (!live) return;
      stop();
      ended();
    };
    for (const key of keys) {
      const set = this.watchers.get(key);
      if (set) set.add(fire);
      else this.watchers.set(key, new Set([fire]));
    }
    return stop;
  }

  /** How many watches are live (for tests and diagnostics). */
  get size(): number {
    return this.watching;
  }

  private end(key: string): void {
    const set = this.watchers.get(key);
    if (!set) return;
    for (const fire of [...set]) fire();
  }
}
