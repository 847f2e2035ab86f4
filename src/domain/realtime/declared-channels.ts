import type { ChannelAuthorizer } from './channel-authorization.js';
import { ChannelPattern, isChannelName } from './channel-pattern.js';

/** A channel resolved against the declared patterns: its parameters and the pattern's `authorize`. */
export interface ResolvedChannel {
  readonly params: Record<string, string>;
  readonly authorize: ChannelAuthorizer | undefined;
}

/**
 * The channel patterns an app declares (`chat/:room`, `news`), each with its optional
 * `authorize`; a channel resolves to the first pattern it matches.
 *
 * @example
 * const channels = new DeclaredChannels();
 * channels.declare('chat/:room');
 * channels.resolve('chat/42'); // { params: { room: '42' }, authorize: undefined }
 */
export class DeclaredChannels {
  private readonly declared: { pattern: ChannelPattern; authorize: ChannelAuthorizer | undefined }[] = [];

  /** Declares a channel pattern (`chat/:room`); without `authorize` everyone may listen. Throws for a malformed or repeated pattern. */
  declare(pattern: string, authorize?: ChannelAuthorizer): void {
    if (this.declared.some((d) => d.pattern.pattern === pattern)) throw new Error(`realtime: channel "${pattern}" is declared twice`);
    this.declared.push({ pattern: new ChannelPattern(pattern), authorize });
  }

  /** The declared patterns, in declaration order. */
  patterns(): string[] {
    return this.declared.map((d) => d.pattern.pattern);
  }

  /** The first declared pattern `channel` matches, with its parameters; undefined for an unknown channel. */
  resolve(channel: string): ResolvedChannel | undefined {
    if (!isChannelName(channel)) return undefined;
    for (const d of this.declared) {
      const params = d.pattern.match(channel);
      if (params) return { params, authorize: d.authorize };
    }
    return undefined;
  }
}
