import { ChangePassword } from '../../application/auth/change-password.js';
import { ConfirmPasswordReset } from '../../application/auth/confirm-password-reset.js';
import { IssueVerificationCode } from '../../application/auth/issue-verification-code.js';
import { RequestPasswordReset } from '../../application/auth/request-password-reset.js';
import { LogIn } from '../../application/auth/log-in.js';
import { ResendVerification } from '../../application/auth/resend-verification.js';
import { SignUp, type SignUpDeps } from '../../application/auth/sign-up.js';
import { ThrottleGate } from '../../application/auth/throttle-gate.js';
import { TokenManager, type TokenCacheOptions } from '../../application/auth/token-manager.js';
import { VerifyEmail } from '../../application/auth/verify-email.js';
import { LinkedAccounts } from '../../application/social/linked-accounts.js';
import type { PluginContext } from '../plugin.js';
import { TOKENS } from '../tokens.js';

/** The auth plugin's choices its use cases are built with. */
export interface AuthSettings {
  readonly requireVerifiedEmail: boolean;
  readonly throttle: boolean;
  readonly tokenCache?: TokenCacheOptions;
  readonly afterSignUp?: SignUpDeps['afterSignUp'];
  /** The page a reset mail links to (the token appended as `?token=`). */
  readonly resetPage: () => string;
  /** The site's name in Portico's mail. */
  readonly site: string;
}

/**
 * Binds the authentication use cases (`TOKENS.LogIn`, `SignUp`, `VerifyEmail`,
 * `ResendVerification`, `IssueVerificationCode`), their throttle (`AuthThrottle`) and the bearer
 * tokens (`BearerTokens`), each built on first use from the ports it needs.
 */
export function bindAuthUseCases(ctx: PluginContext, settings: AuthSettings): void {
  const { requireVerifiedEmail } = settings;
  ctx.bindFactory(TOKENS.AuthThrottle, (get) => new ThrottleGate(get(TOKENS.ThrottleStore), settings.throttle));
  ctx.bindFactory(TOKENS.BearerTokens, (get) => new TokenManager(get(TOKENS.Store), get(TOKENS.Random), get(TOKENS.Clock), settings.tokenCache, get(TOKENS.Events)));
  ctx.bindFactory(
    TOKENS.IssueVerificationCode,
    (get) =>
      new IssueVerificationCode({
        store: get(TOKENS.Store),
        clock: get(TOKENS.Clock),
        random: get(TOKENS.Random),
        mail: get(TOKENS.MailQueue),
        templates: get(TOKENS.MailTemplates),
        secret: get(TOKENS.Settings).secret,
      }),
  );
  ctx.bindFactory(
    TOKENS.LogIn,
    (get) =>
      new LogIn({
        store: get(TOKENS.Store),
        hasher: get(TOKENS.Hasher),
        throttle: get(TOKENS.AuthThrottle),
        clock: get(TOKENS.Clock),
        requireVerifiedEmail,
        dummyHash: get(TOKENS.UnknownUserHash),
      }),
  );
  ctx.bindFactory(
    TOKENS.SignUp,
    (get) =>
      new SignUp({
        store: get(TOKENS.Store),
        hasher: get(TOKENS.Hasher),
        throttle: get(TOKENS.AuthThrottle),
        issueCode: get(TOKENS.IssueVerificationCode),
        requireVerifiedEmail,
        ...(settings.afterSignUp ? { afterSignUp: settings.afterSignUp } : {}),
      }),
  );
  ctx.bindFactory(
    TOKENS.VerifyEmail,
    (get) => new VerifyEmail({ store: get(TOKENS.Store), clock: get(TOKENS.Clock), throttle: get(TOKENS.AuthThrottle), secret: get(TOKENS.Settings).secret }),
  );
  ctx.bindFactory(TOKENS.ResendVerification, (get) => new ResendVerification(get(TOKENS.Store), get(TOKENS.AuthThrottle), get(TOKENS.IssueVerificationCode)));
  ctx.bindFactory(
    TOKENS.RequestPasswordReset,
    (get) =>
      new RequestPasswordReset({
        store: get(TOKENS.Store),
        clock: get(TOKENS.Clock),
        random: get(TOKENS.Random),
        throttle: get(TOKENS.AuthThrottle),
        mail: get(TOKENS.MailQueue),
        templates: get(TOKENS.MailTemplates),
        secret: get(TOKENS.Settings).secret,
        resetPage: settings.resetPage,
        site: settings.site,
      }),
  );
  ctx.bind(TOKENS.RequireVerifiedEmail, requireVerifiedEmail);
  ctx.bindFactory(TOKENS.LinkedAccounts, (get) => new LinkedAccounts(get(TOKENS.Store)));
  ctx.bindFactory(TOKENS.ChangePassword, (get) => new ChangePassword({ store: get(TOKENS.Store), clock: get(TOKENS.Clock), hasher: get(TOKENS.Hasher), throttle: get(TOKENS.AuthThrottle) }));
  ctx.bindFactory(
    TOKENS.ConfirmPasswordReset,
    (get) => new ConfirmPasswordReset({ store: get(TOKENS.Store), clock: get(TOKENS.Clock), hasher: get(TOKENS.Hasher), throttle: get(TOKENS.AuthThrottle), secret: get(TOKENS.Settings).secret }),
  );
}
