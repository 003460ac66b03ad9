import type { FastifyRequest } from 'fastify';
import { recordAudit } from '../audit.ts';
import { type Caller, type Deps, type Environment, normalizeEnvironment } from '../context.ts';
import { AppError, forbidden, invalidRequest, notFound } from '../errors.ts';
import { isUuid } from '../ids.ts';
import { sha256 } from '../secrets.ts';
import { findKeyByHash, revokeKey } from './api-key-store.ts';
import { cachedCredential } from './credential-cache.ts';
import { credentialDigest, extractToken, parseCredential, SESSION_COOKIE } from './credentials.ts';

const invalidCredentials = () =>
  new AppError('invalid_credentials', 'The credentials are not valid for this workspace.');

export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  totpEnabled: boolean;
}

interface SessionRow extends SessionUser {
  expiresAt: Date;
}

async function loadSession(deps: Deps, hash: Buffer): Promise<SessionRow | undefined> {
  const { rows } = await deps.db.query<{
    id: string;
    user_id: string;
    email: string;
    totp_enabled: boolean;
    expires_at: Date | string;
  }>(
    `SELECT s.id, s.user_id, u.email, u.totp_enabled, s.expires_at FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = $1 AND s.revoked_at IS NULL AND s.expires_at > $2`,
    [hash, deps.clock.now()],
  );
  const row = rows[0];
  return (
    row && {
      sessionId: row.id,
      userId: row.user_id,
      email: row.email,
      totpEnabled: row.totp_enabled,
      expiresAt: new Date(row.expires_at),
    }
  );
}

/**
 * Looks a session token up; undefined when unknown, revoked or expired. Served from the process's
 * credential cache: a logout or a change to the user (2FA) forgets it on every process. Expiry is
 * no change anyone announces, so it is checked on every use, cached or not.
 */
export async function findSession(deps: Deps, token: string): Promise<SessionUser | undefined> {
  const hash = sha256(token);
  const row = await cachedCredential(deps.db, `session:${hash.toString('hex')}`, () =>
    loadSession(deps, hash),
  );
  if (!row || row.expiresAt.getTime() <= deps.clock.now().getTime()) return undefined;
  return { sessionId: row.sessionId, userId: row.userId, email: row.email, totpEnabled: row.totpEnabled };
}

/**
 * Whether the user is a member of the workspace or of its parent: the parent's owners manage their
 * sub-accounts. Cached like the session; only a yes is kept, so a membership that starts later is
 * seen at once, and one that ends must say credentialsChanged.
 */
async function isMember(deps: Deps, workspaceId: string, userId: string): Promise<boolean> {
  const member = await cachedCredential(deps.db, `member:${userId}:${workspaceId}`, async () => {
    const { rows } = await deps.db.query(
      `SELECT 1 FROM workspaces w JOIN workspace_members m ON m.workspace_id IN (w.id, w.parent_workspace_id)
        WHERE w.id = $1 AND m.user_id = $2 LIMIT 1`,
      [workspaceId, userId],
    );
    return rows.length > 0 ? true : undefined;
  });
  return member === true;
}

function tokenOf(request: FastifyRequest): string | undefined {
  return extractToken(request.headers.authorization, request.cookies?.[SESSION_COOKIE]);
}

/** For routes outside /v1/{env} that need a logged-in owner but no workspace (2FA, logout). */
export async function requireSessionUser(deps: Deps, request: FastifyRequest): Promise<SessionUser> {
  const token = tokenOf(request);
  if (token === undefined)
    throw new AppError('missing_credentials', 'Send Authorization: Bearer <session token>.');
  const parsed = parseCredential(token);
  if (parsed.kind === 'api_key') throw forbidden('This route takes a dashboard session, not an API key.');
  const session = parsed.kind === 'session' ? await findSession(deps, token) : undefined;
  if (!session) throw new AppError('invalid_credentials', 'The session is unknown or has expired.');
  return session;
}

const SUBACCOUNT_HEADER = 'x-subaccount-id';

/** last_used_at is kept to the minute; this process skips the write while its own last one is fresh. */
const TOUCH_EVERY_MS = 60_000;
const lastTouched = new Map<string, number>();

async function touchKey(deps: Deps, keyId: string): Promise<void> {
  const now = Date.now();
  if (now - (lastTouched.get(keyId) ?? 0) < TOUCH_EVERY_MS) return;
  if (lastTouched.size > 10_000) lastTouched.clear();
  lastTouched.set(keyId, now);
  await deps.db.query(
    `UPDATE api_keys SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [keyId],
  );
}

/**
 * Applies the spec's Authentication rules 1–9 to a /v1/{env} request and returns the caller.
 * Order: credentials present → workspace header → credential valid → environment rules → route's caller kind → sub-account.
 */
export async function authenticate(deps: Deps, request: FastifyRequest): Promise<Caller> {
  const mode = request.routeOptions.config.auth ?? 'any';
  const env = normalizeEnvironment((request.params as { env?: string }).env ?? '');
  if (!env || (env === 'live' && request.routeOptions.config.sandboxOnly)) throw notFound('Route');

  const token = tokenOf(request);
  if (token === undefined) throw new AppError('missing_credentials', 'Send Authorization: Bearer <API key>.');

  const workspaceHeader = request.headers['x-workspace-id'];
  if (!isUuid(workspaceHeader)) {
    throw new AppError('workspace_id_required', 'Send X-Workspace-Id with the workspace UUID.');
  }
  const workspaceId = workspaceHeader.toLowerCase();
  const parsed = parseCredential(token);

  let caller: Caller;
  if (parsed.kind === 'session') {
    const session = await findSession(deps, token);
    if (!session) throw invalidCredentials();
    if (!(await isMember(deps, workspaceId, session.userId))) throw invalidCredentials();
    caller = {
      type: 'session',
      workspaceId,
      callerWorkspaceId: workspaceId,
      environment: env,
      partyId: null,
      userId: session.userId,
      twoFactor: session.totpEnabled,
    };
  } else if (parsed.kind === 'api_key') {
    caller = await authenticateKey(deps, request, token, parsed.environment, env, workspaceId);
  } else {
    throw invalidCredentials();
  }

  if (mode === 'session' && caller.type !== 'session') {
    throw forbidden('This route takes a dashboard session, not an API key.');
  }
  if (mode === 'workspace' && caller.partyId !== null) {
    throw forbidden('A party-scoped key cannot use this route.');
  }
  return actAsSubaccount(deps, request, caller);
}

async function authenticateKey(
  deps: Deps,
  request: FastifyRequest,
  token: string,
  keyEnvironment: Environment,
  pathEnvironment: Environment,
  workspaceId: string,
): Promise<Caller> {
  const hash = credentialDigest(request, token);
  const key = await cachedCredential(deps.db, hash.toString('hex'), () => findKeyByHash(deps.db, hash));
  if (!key) throw invalidCredentials();
  // Rule 5: a live key seen on a sandbox path has leaked somewhere it should not be; it dies now.
  if (keyEnvironment === 'live' && pathEnvironment === 'sandbox') {
    await deps.db.transaction((tx) =>
      revokeKey(tx, key.id, 'live_key_used_on_sandbox', {
        environment: 'live',
        actorType: 'system',
        ip: request.ip,
        requestId: request.id,
        metadata: { path: request.url.split('?')[0] },
      }),
    );
    throw new AppError(
      'api_key_revoked',
      'A live key was used on a sandbox path and has been revoked. Create a new live key.',
    );
  }
  // Another workspace's key is unknown here, revoked or not: saying "revoked" would confirm it exists.
  if (key.workspace_id !== workspaceId) throw invalidCredentials();
  if (key.revoked_at) throw new AppError('api_key_revoked', 'This API key has been revoked.');

  // Rule 6: refused and logged, not revoked.
  if (keyEnvironment === 'sandbox' && pathEnvironment === 'live') {
    await recordAudit(deps.db, {
      workspaceId: key.workspace_id,
      environment: 'live',
      actorType: 'api_key',
      actorId: key.id,
      action: 'api_key.environment_mismatch',
      targetType: 'api_key',
      targetId: key.id,
      ip: request.ip,
      requestId: request.id,
      metadata: { path: request.url.split('?')[0] },
    });
    throw new AppError('environment_mismatch', 'A sandbox key cannot call a live path.');
  }
  if (keyEnvironment === 'live' && !key.production_enabled) {
    throw new AppError('production_not_enabled', 'The workspace owner has not enabled production yet.');
  }
  await touchKey(deps, key.id);
  return {
    type: 'api_key',
    workspaceId,
    callerWorkspaceId: workspaceId,
    environment: pathEnvironment,
    partyId: key.party_id,
    apiKeyId: key.id,
  };
}

async function actAsSubaccount(deps: Deps, request: FastifyRequest, caller: Caller): Promise<Caller> {
  const header = request.headers[SUBACCOUNT_HEADER];
  if (header === undefined) return caller;
  if (!request.routeOptions.config.subaccount) {
    throw invalidRequest('X-Subaccount-Id is not accepted on this route.', [
      { field: 'headers.x-subaccount-id', issue: 'not accepted on this route' },
    ]);
  }
  if (caller.partyId !== null) throw forbidden('A party-scoped key cannot act on a sub-account.');
  if (!isUuid(header)) {
    throw invalidRequest('X-Subaccount-Id must be a UUID.', [
      { field: 'headers.x-subaccount-id', issue: 'must be a UUID' },
    ]);
  }
  const { rows } = await deps.db.query(
    'SELECT 1 FROM workspaces WHERE id = $1 AND parent_workspace_id = $2',
    [header.toLowerCase(), caller.workspaceId],
  );
  if (rows.length === 0) throw notFound('Sub-account');
  return { ...caller, workspaceId: header.toLowerCase(), actingSubaccountId: header.toLowerCase() };
}
