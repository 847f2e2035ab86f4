import type { Identity } from '../../domain/auth/identity.js';
import { refusalFor, type Admission } from '../../domain/realtime/channel-authorization.js';
import type { DeclaredChannels } from '../../domain/realtime/declared-channels.js';

/**
 * Whether a caller may listen to a channel, whatever the transport (SSE, WebSocket): an unknown
 * channel is `not_found`; a declared one is admitted unless its `authorize` says no, which is
 * `not_authenticated` for an anonymous caller and `forbidden` for an identified one.
 *
 * @example
 * const admission = await new AuthorizeChannel(channels).execute('chat/42', identity);
 * if (admission.ok) admission.params; // { room: '42' }
 */
export class AuthorizeChannel {
  constructor(private readonly channels: DeclaredChannels) {}

  async execute(channel: string, identity: Identity): Promise<Admission> {
    const found = this.channels.resolve(channel);
    if (!found) return { ok: false, code: 'not_found' };
    if (found.authorize && !(await found.authorize({ identity, params: found.params, channel }))) {
      return { ok: false, code: refusalFor(identity) };
    }
    return { ok: true, params: found.params };
  }
}
