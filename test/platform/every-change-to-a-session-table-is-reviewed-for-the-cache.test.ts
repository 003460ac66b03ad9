/**
 * Sessions, their users' 2FA and memberships are cached in every process (credential-cache.ts), so a
 * write that ends or narrows a session's access must call credentialsChanged in its transaction, or
 * other processes keep serving the old state. Every UPDATE, DELETE or TRUNCATE of those tables in src
 * is listed here with what it does for the cache: a new one fails until someone has decided.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const WRITE =
  /\b(UPDATE|DELETE\s+FROM|TRUNCATE)\s+(sessions|users|workspace_members|workspaces)\b(\s+SET\s+\w+)?/gi;

/** Each known write, and why the cache is right after it. */
const REVIEWED: Record<string, string> = {
  'modules/owner/repo.ts: UPDATE sessions SET revoked_at': 'logout calls credentialsChanged',
  'modules/owner/repo.ts: UPDATE users SET totp_enabled': 'enableTwoFactor calls credentialsChanged',
  'modules/owner/repo.ts: UPDATE users SET totp_secret_enc': 'not cached: 2FA code checks read the user',
  'modules/owner/repo.ts: UPDATE users SET totp_last_step': 'not cached: 2FA code checks read the user',
  'modules/workspace/repo.ts: UPDATE workspaces SET default_party_id': 'not part of authentication',
  'modules/workspace/repo.ts: UPDATE workspaces SET display_name':
    'production_enabled calls credentialsChanged; no membership changes',
};

it('every write to sessions, users, memberships or workspaces is reviewed for the credential cache', () => {
  const found = new Set<string>();
  for (const file of sourceFiles(SRC)) {
    const name = path.relative(SRC, file).split(path.sep).join('/');
    for (const match of readFileSync(file, 'utf8').matchAll(WRITE))
      found.add(`${name}: ${match[0].replace(/\s+/g, ' ')}`);
  }
  expect([...found].sort()).toEqual(Object.keys(REVIEWED).sort());
});
