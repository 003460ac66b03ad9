import type { Queryable } from '../../db/types.ts';
import { newId } from '../../platform/ids.ts';
import { sha256 } from '../../platform/secrets.ts';

export interface UserRow {
  id: string;
  email: string;
  password_hash: string;
  totp_secret_enc: string | null;
  totp_enabled: boolean;
  /** The last TOTP time step accepted (a code of that step or an earlier one is refused). */
  totp_last_step: bigint | null;
  created_at: Date;
}

export async function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>('SELECT * FROM users WHERE email = $1', [email]);
  return rows[0];
}

export async function findUserById(q: Queryable, id: string): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>('SELECT * FROM users WHERE id = $1', [id]);
  return rows[0];
}

export async function insertUser(
  q: Queryable,
  email: string,
  passwordHash: string,
): Promise<UserRow | undefined> {
  const { rows } = await q.query<UserRow>(
    'INSERT INTO users (id, email, password_hash) VALUES ($1, $2, $3) ON CONFLICT (email) DO NOTHING RETURNING *',
    [newId(), email, passwordHash],
  );
  return rows[0];
}

export async function insertSession(
  q: Queryable,
  userId: string,
  token: string,
  expiresAt: Date,
): Promise<void> {
  await q.query('INSERT INTO sessions (id, token_hash, user_id, expires_at) VALUES ($1, $2, $3, $4)', [
    newId(),
    sha256(token),
    userId,
    expiresAt,
  ]);
}

/** True when this call ended the session (false when it was already over). */
export async function revokeSession(q: Queryable, sessionId: string): Promise<boolean> {
  const { rows } = await q.query(
    'UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id',
    [sessionId],
  );
  return rows.length === 1;
}

/** Stores a new TOTP secret unless 2FA is on (false then): an enabled secret is never replaced. */
export async function setTotpSecret(q: Queryable, userId: string, sealed: string): Promise<boolean> {
  const { rows } = await q.query(
    'UPDATE users SET totp_secret_enc = $2 WHERE id = $1 AND NOT totp_enabled RETURNING id',
    [userId, sealed],
  );
  return rows.length === 1;
}

export async function totpEnabled(q: Queryable, userId: string): Promise<boolean> {
  const { rows } = await q.query<{ totp_enabled: boolean }>('SELECT totp_enabled FROM users WHERE id = $1', [
    userId,
  ]);
  return rows[0]?.totp_enabled === true;
}

/**
 * Takes a one-time code's time step for the user: true when it is later than every step taken
 * before. One conditional UPDATE, so of two concurrent requests with one code only one gets the row.
 */
export async function claimTotpStep(q: Queryable, userId: string, step: number): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE users SET totp_last_step = $2
      WHERE id = $1 AND (totp_last_step IS NULL OR totp_last_step < $2) RETURNING id`,
    [userId, String(step)],
  );
  return rows.length === 1;
}

export async function enableTotp(q: Queryable, userId: string): Promise<void> {
  await q.query('UPDATE users SET totp_enabled = true WHERE id = $1', [userId]);
}

export async function workspacesOfUser(q: Queryable, userId: string) {
  const { rows } = await q.query<{ id: string; display_name: string }>(
    `SELECT w.id, w.display_name FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id
      WHERE m.user_id = $1 ORDER BY w.created_at`,
    [userId],
  );
  return rows;
}

/** Replaces the user's recovery codes with these hashes: every code of the old set stops working. */
export async function replaceRecoveryCodes(q: Queryable, userId: string, hashes: Buffer[]): Promise<void> {
  await q.query('DELETE FROM user_recovery_codes WHERE user_id = $1', [userId]);
  for (const hash of hashes)
    await q.query('INSERT INTO user_recovery_codes (id, user_id, code_hash) VALUES ($1, $2, $3)', [
      newId(),
      userId,
      hash,
    ]);
}

/**
 * Spends one recovery code: true when it was the user's and unused. One conditional UPDATE, so of
 * two requests with one code only one gets it.
 */
export async function spendRecoveryCode(q: Queryable, userId: string, hash: Buffer): Promise<boolean> {
  const { rows } = await q.query(
    `UPDATE user_recovery_codes SET used_at = now()
      WHERE user_id = $1 AND code_hash = $2 AND used_at IS NULL RETURNING id`,
    [userId, hash],
  );
  return rows.length === 1;
}

export async function recoveryCodesLeft(q: Queryable, userId: string): Promise<number> {
  const { rows } = await q.query<{ n: string }>(
    'SELECT count(*) AS n FROM user_recovery_codes WHERE user_id = $1 AND used_at IS NULL',
    [userId],
  );
  return Number(rows[0]?.n ?? 0);
}
