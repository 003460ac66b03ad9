/**
 * Two-factor recovery codes: ten single-use codes, shown once when 2FA is turned on (or the set is
 * made anew), each good once instead of an authenticator code at login. Stored as SHA-256 hashes;
 * every use and every new set is audited in each of the user's workspaces.
 */
import { randomInt } from 'node:crypto';
import type { Queryable } from '../../db/types.ts';
import { recordAudit } from '../../platform/audit.ts';
import { sha256 } from '../../platform/secrets.ts';
import * as repo from './repo.ts';

export const RECOVERY_CODE_COUNT = 10;
/** No 0/o, 1/l/i: a code copied by hand from paper is read back right. */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const HALF_LENGTH = 5;

/** A code like "k7m2q-x9dfa": 10 characters of a 31-letter alphabet, about 50 random bits. */
export function newRecoveryCode(): string {
  const half = () => Array.from({ length: HALF_LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
  return `${half()}-${half()}`;
}

/** The form a code is hashed in: case, spaces and dashes as typed do not matter. */
export const normalizeRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/** Whether a typed code has the shape of a recovery code (an authenticator code is six digits). */
export const looksLikeRecoveryCode = (code: string) =>
  new RegExp(`^[${ALPHABET}]{${HALF_LENGTH * 2}}$`).test(normalizeRecoveryCode(code));

const hashOf = (code: string) => sha256(`lastro-recovery:${normalizeRecoveryCode(code)}`);

async function auditUser(q: Queryable, userId: string, action: string, metadata: Record<string, unknown>) {
  for (const workspace of await repo.workspacesOfUser(q, userId))
    await recordAudit(q, { workspaceId: workspace.id, actorType: 'user', actorId: userId, action, metadata });
}

/** A new set for the user, replacing (and so invalidating) the old one; the codes are returned once. */
export async function issueRecoveryCodes(
  q: Queryable,
  userId: string,
  action: 'user.recovery_codes_generated' | 'user.recovery_codes_regenerated',
): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  await repo.replaceRecoveryCodes(q, userId, codes.map(hashOf));
  await auditUser(q, userId, action, { count: codes.length });
  return codes;
}

/** Spends a recovery code of the user's: false when it is not one of theirs or was used already. */
export async function spendRecoveryCode(q: Queryable, userId: string, code: string): Promise<boolean> {
  if (!(await repo.spendRecoveryCode(q, userId, hashOf(code)))) return false;
  const left = await repo.recoveryCodesLeft(q, userId);
  await auditUser(q, userId, 'user.recovery_code_used', { codes_left: left });
  return true;
}
