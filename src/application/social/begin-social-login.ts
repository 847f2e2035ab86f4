import { SOCIAL_PENDING_LIFETIME_MS, type PendingSocialLogin } from '../../domain/auth/social-login.js';
import { successTarget } from '../../domain/auth/redirect-guard.js';
import type { Value } from '../../domain/model/types.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { encodeToken } from '../auth/secrets.js';
import { socialRefusal, type SocialProviders } from './social-providers.js';

export interface BeginSocialLoginDeps {
  readonly providers: SocialProviders;
  readonly random: RandomSource;
  readonly clock: Clock;
  /** Seals what the browser carries to the callback. */
  readonly box: SecretBox;
  readonly logger: Logger;
}

/**
 * Starts a social login (issue 50): a fresh state, nonce and PKCE verifier (256 bits each),
 * sealed with the landing path and, for an explicit link, the signed-in user, for the browser to
 * hold (a short-lived cookie); answers where to send the browser (the provider, with the state,
 * nonce and S256 challenge). A provider that is down refuses with `social_login_failed`.
 */
export class BeginSocialLogin {
  constructor(private readonly deps: BeginSocialLoginDeps) {}

  async execute(input: { provider: string; redirect: string | undefined; linkUserId?: Value }): Promise<{ location: string; pending: string }> {
    const { providers, random, clock, box } = this.deps;
    const provider = providers.get(input.provider);
    if (!provider) throw socialRefusal(`No sign-in provider is named ${input.provider}.`);
    const token = (): string => encodeToken(random.bytes(32));
    const link = input.linkUserId;
    const pending: PendingSocialLogin = {
      provider: provider.name,
      state: token(),
      nonce: token(),
      verifier: token(),
      redirect: successTarget(input.redirect),
      linkUserId: typeof link === 'string' || typeof link === 'number' ? link : null,
      expiresAt: clock.now().getTime() + SOCIAL_PENDING_LIFETIME_MS,
    };
    let location: string;
    try {
      location = await provider.authorizationUrl({ state: pending.state, nonce: pending.nonce, codeVerifier: pending.verifier, redirectUri: providers.callbackUrl(provider.name) });
    } catch (error) {
      this.deps.logger.warn({ provider: provider.name, reason: error instanceof Error ? error.message : String(error) }, 'social login could not start');
      throw socialRefusal(`Signing in with ${provider.name} is not available right now. Try again later.`);
    }
    return { location, pending: box.seal(JSON.stringify(pending)) };
  }
}
