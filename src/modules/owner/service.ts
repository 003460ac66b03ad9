import type { Queryable } from '../../db/types.ts';
import { recordAudit } from '../../platform/audit.ts';
import type { SessionUser } from '../../platform/auth/authenticate.ts';
import { credentialsChanged } from '../../platform/auth/credential-cache.ts';
import { newSessionToken } from '../../platform/auth/credentials.ts';
import type { Deps } from '../../platform/context.ts';
import { AppError } from '../../platform/errors.ts';
import { iso } from '../../platform/schema.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, verifyPassword } from '../../platform/secrets.ts';
import { newTotpSecret, totpStep, totpUri } from '../../platform/totp.ts';
import { workspaceView } from '../workspace/schemas.ts';
import { createWorkspace } from '../workspace/service.ts';
import { issueRecoveryCodes, looksLikeRecoveryCode, spendRecoveryCode } from './recovery-codes.ts';
import * as repo from './repo.ts';

const userView = (user: repo.UserRow) => ({
  id: user.id,
  email: user.email,
  two_factor_enabled: user.totp_enabled,
  created_at: iso(user.created_at),
});

function sessionExpiry(deps: Deps): Date {
  return new Date(deps.clock.now().getTime() + deps.config.sessionTtlHours * 3600_000);
}

export async function signup(deps: Deps, input: { email: string; password: string; workspace_name: string }) {
  const email = input.email.trim().toLowerCase();
  const passwordHash = await hashPassword(input.password);
  const token = newSessionToken();
  const expiresAt = sessionExpiry(deps);
  return deps.db.transaction(async (tx) => {
    const user = await repo.insertUser(tx, email, passwordHash);
    if (!user) throw new AppError('conflict', 'An account with this e-mail already exists; log in instead.');
    const workspace = await createWorkspace(tx, {
      displayName: input.workspace_name.trim(),
      ownerId: user.id,
    });
    await repo.insertSession(tx, user.id, token, expiresAt);
    await recordAudit(tx, {
      workspaceId: workspace.id,
      actorType: 'user',
      actorId: user.id,
      action: 'workspace.created',
    });
    return {
      user: userView(user),
      workspace: workspaceView(workspace),
      session_token: token,
      expires_at: iso(expiresAt),
    };
  });
}

export async function login(deps: Deps, input: { email: string; password: string; otp_code?: string }) {
  const user = await repo.findUserByEmail(deps.db, input.email.trim().toLowerCase());
  const passwordOk = await verifyPassword(input.password, user?.password_hash ?? DUMMY_PASSWORD_HASH);
  if (!user || !passwordOk) throw new AppError('invalid_credentials', 'E-mail or password is wrong.');
  const token = newSessionToken();
  const expiresAt = sessionExpiry(deps);
  // The code is spent, its use audited and the session made together: a failure after the spend
  // must not leave a recovery code used with no trace of who used it, nor burn it for no session.
  const workspaces = await deps.db.transaction(async (tx) => {
    if (user.totp_enabled) await checkOtp(deps, tx, user, input.otp_code, BODY_OTP_OR_RECOVERY);
    await repo.insertSession(tx, user.id, token, expiresAt);
    return repo.workspacesOfUser(tx, user.id);
  });
  return { session_token: token, expires_at: iso(expiresAt), user: userView(user), workspaces };
}

/**
 * Where a request carries its one-time code: the field its refusals name in `details`, and the name
 * the message asks for. Login and turning 2FA on send `otp_code` in the body.
 */
export interface OtpSource {
  field: string;
  name: string;
  /** Whether a recovery code is taken instead of an authenticator code (login and a new set only). */
  recovery?: boolean;
}
const BODY_OTP: OtpSource = { field: 'body.otp_code', name: 'otp_code' };
const BODY_OTP_OR_RECOVERY: OtpSource = { ...BODY_OTP, recovery: true };

/**
 * Accepts a code once (RFC 6238 §5.2): its time step must be later than the last one accepted for
 * the user, and taking it is one conditional UPDATE, so a code seen by someone else (or sent twice at
 * once) is refused.
 */
async function takeOtp(
  deps: Deps,
  q: Queryable,
  user: repo.UserRow,
  code: string,
  source: OtpSource,
): Promise<void> {
  if (source.recovery && looksLikeRecoveryCode(code)) {
    if (await spendRecoveryCode(q, user.id, code)) return;
    throw new AppError('otp_invalid', 'The recovery code is wrong or has already been used.', [
      { field: source.field, issue: 'is wrong or has already been used' },
    ]);
  }
  const step = totpStep(deps.sealer.open(user.totp_secret_enc!), code, deps.clock.now());
  if (step === undefined) {
    throw new AppError('otp_invalid', 'The one-time code is wrong or has expired.', [
      { field: source.field, issue: 'is wrong or has expired' },
    ]);
  }
  if (!(await repo.claimTotpStep(q, user.id, step))) {
    throw new AppError('otp_invalid', 'This one-time code has already been used; wait for the next one.', [
      { field: source.field, issue: 'has already been used; wait for the next one' },
    ]);
  }
}

/** 401 otp_required without a code, 401 otp_invalid for a wrong, expired or used one (any shape). */
async function checkOtp(
  deps: Deps,
  q: Queryable,
  user: repo.UserRow,
  code: string | undefined,
  source: OtpSource,
) {
  if (!code) {
    throw new AppError('otp_required', `Two-factor authentication is on: send ${source.name}.`, [
      { field: source.field, issue: 'is required: two-factor authentication is on' },
    ]);
  }
  await takeOtp(deps, q, user, code, source);
}

/**
 * The second factor of a 2FA user, asked again for a sensitive action (a crypto send from the
 * dashboard: X-OTP-Code). A user without 2FA passes.
 */
export async function requireOtp(deps: Deps, userId: string, code: string | undefined, source: OtpSource) {
  const user = await repo.findUserById(deps.db, userId);
  if (user?.totp_enabled) await checkOtp(deps, deps.db, user, code, source);
}

/** Every process caches sessions: the token must stop working on all of them, not just this one. */
export async function logout(deps: Deps, session: SessionUser): Promise<void> {
  await deps.db.transaction(async (tx) => {
    if (await repo.revokeSession(tx, session.sessionId)) credentialsChanged(tx);
  });
}

export async function setupTwoFactor(deps: Deps, session: SessionUser) {
  const alreadyOn = () => new AppError('conflict', 'Two-factor authentication is already on.');
  if (session.totpEnabled) throw alreadyOn();
  const secret = newTotpSecret();
  // The session is cached per process and may predate a 2FA turned on elsewhere: the row decides, or
  // a stolen session could swap the owner's authenticator for its own.
  if (!(await repo.setTotpSecret(deps.db, session.userId, deps.sealer.seal(secret)))) throw alreadyOn();
  return { secret, otpauth_url: totpUri(secret, session.email) };
}

/**
 * Whether the user has 2FA on, read from the user row: for a decision a cached session's flag must
 * not make alone (it may predate a 2FA turned on through another process).
 */
export function twoFactorIsOn(deps: Deps, userId: string): Promise<boolean> {
  return repo.totpEnabled(deps.db, userId);
}

export async function enableTwoFactor(deps: Deps, session: SessionUser, otpCode: string) {
  const user = await repo.findUserById(deps.db, session.userId);
  if (!user?.totp_secret_enc) throw new AppError('invalid_state', 'Call /v1/auth/2fa/setup first.');
  if (user.totp_enabled) throw new AppError('conflict', 'Two-factor authentication is already on.');
  const codes = await deps.db.transaction(async (tx) => {
    // The code that turns 2FA on is spent like any other: it cannot log in a second time.
    await takeOtp(deps, tx, user, otpCode, BODY_OTP);
    await repo.enableTotp(tx, user.id);
    // Cached sessions carry totp_enabled (a 2FA caller's sends need a code): every process forgets them.
    credentialsChanged(tx);
    for (const workspace of await repo.workspacesOfUser(tx, user.id)) {
      await recordAudit(tx, {
        workspaceId: workspace.id,
        actorType: 'user',
        actorId: user.id,
        action: 'user.2fa_enabled',
      });
    }
    return issueRecoveryCodes(tx, user.id, 'user.recovery_codes_generated');
  });
  return { two_factor_enabled: true, recovery_codes: codes };
}

/**
 * A new set of recovery codes, proven by a current authenticator code or an unused recovery code;
 * the old set stops working in the same transaction.
 */
export async function regenerateRecoveryCodes(deps: Deps, session: SessionUser, otpCode: string) {
  const user = await repo.findUserById(deps.db, session.userId);
  if (!user?.totp_enabled) throw new AppError('invalid_state', 'Turn two-factor authentication on first.');
  const codes = await deps.db.transaction(async (tx) => {
    await takeOtp(deps, tx, user, otpCode, BODY_OTP_OR_RECOVERY);
    return issueRecoveryCodes(tx, user.id, 'user.recovery_codes_regenerated');
  });
  return { recovery_codes: codes };
}
