/** A channel segment: URL-safe characters only (RFC 3986 unreserved), 1–64 of them. */
const SEGMENT = /^[A-Za-z0-9_.~-]{1,64}$/;
const PARAM = /^:([A-Za-z_][A-Za-z0-9_]*)$/;
const MAX_SEGMENTS = 8;

/** True when `channel` is a well-formed channel name (`chat/42`): 1–8 URL-safe segments separated by `/`. */
export function isChannelName(channel: string): boolean {
  const segments = channel.split('/');
  return segments.length <= MAX_SEGMENTS && segments.every((s) => SEGMENT.test(s));
}

/**
 * A channel pattern such as `chat/:room`: literal segments match themselves, a `:name` segment
 * matches any one URL-safe segment and is captured as a parameter.
 *
 * @example
 * new ChannelPattern('chat/:room').match('chat/42'); // { room: '42' }
 * new ChannelPattern('chat/:room').match('chat/42/x'); // undefined
 */
export class ChannelPattern {
  private readonly segments: readonly ({ literal: string } | { param: string })[];

  constructor(readonly pattern: string) {
    const parts = pattern.split('/');
    if (parts.length > MAX_SEGMENTS) throw new Error(`realtime: channel pattern "${pattern}" has more than ${MAX_SEGMENTS} segments`);
    const names = new Set<string>();
    this.segments = parts.map((part) => {
      const param = PARAM.exec(part)?.[1];
      if (param !== undefined) {
        if (names.has(param)) throw new Error(`realtime: channel pattern "${pattern}" names :${param} twice`);
        names.add(param);
        return { param };
      }
      if (!SEGMENT.test(part)) throw new Error(`realtime: channel pattern "${pattern}": "${part}" is neither a URL-safe segment nor a :parameter`);
      return { literal: part };
    });
  }

  /** The parameters when `channel` matches, else undefined. */
  match(channel: string): Record<string, string> | undefined {
    const parts = channel.split('/');
    if (parts.length !== this.segments.length) return undefined;
    const params: Record<string, string> = {};
    for (const [i, segment] of this.segments.entries()) {
      const part = parts[i] as string;
      if (!SEGMENT.test(part)) return undefined;
      if ('literal' in segment) {
        if (segment.literal !== part) return undefined;
      } else params[segment.param] = part;
    }
    return params;
  }
}
