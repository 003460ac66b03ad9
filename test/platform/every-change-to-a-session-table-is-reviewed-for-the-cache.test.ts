/**
 * Sessions, their users' 2FA and memberships are cached in every process (credential-cache.ts), so a
 * write that ends or narrows a session's access must call credentialsChanged in its transaction, or
 * other processes keep serving the old state. Every UPDATE, DELETE, TRUNCATE, MERGE or upsert of
 * those tables in src (TypeScript and migrations) is listed here, once per statement, with what it
 * does for the cache: a new one fails until someone has decided, even beside a listed one of the
 * same shape (a "log out everywhere" next to logout).
 */
import path from 'node:path';
import { expect, it } from 'vitest';
import { sessionTableWritesUnder } from '../support/session-table-writes.ts';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** Each known write, once per statement, and why the cache is right after it. */
const REVIEWED: [write: string, why: string][] = [
  ['modules/owner/repo.ts: UPDATE sessions SET revoked_at', 'logout calls credentialsChanged'],
  ['modules/owner/repo.ts: UPDATE users SET totp_enabled', 'enableTwoFactor calls credentialsChanged'],
  [
    'modules/owner/repo.ts: UPDATE users SET totp_secret_enc',
    'not cached: 2FA code checks read the user; refused once 2FA is on',
  ],
  ['modules/owner/repo.ts: UPDATE users SET totp_last_step', 'not cached: 2FA code checks read the user'],
  ['modules/workspace/repo.ts: UPDATE workspaces SET default_party_id', 'not part of authentication'],
  [
    'modules/workspace/repo.ts: UPDATE workspaces SET display_name',
    'production_enabled calls credentialsChanged; no membership changes',
  ],
];

it('every write to sessions, users, memberships or workspaces is reviewed for the credential cache', () => {
  expect(sessionTableWritesUnder(SRC)).toEqual(REVIEWED.map(([write]) => write).sort());
});
