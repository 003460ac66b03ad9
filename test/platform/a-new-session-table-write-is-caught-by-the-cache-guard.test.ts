/**
 * The guard that has every write to a cached table reviewed (every-change-to-a-session-table-…)
 * must see a new one whatever its shape. It once kept one entry per file and first SET column, so a
 * "log out everywhere" (`UPDATE sessions SET revoked_at … WHERE user_id`) written beside logout in
 * owner/repo.ts passed unreviewed, as did `UPDATE ONLY`, a schema-qualified table, `TRUNCATE TABLE`,
 * `DELETE FROM ONLY`, an upsert's DO UPDATE, and any migration.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { sessionTableWrites, sessionTableWritesUnder } from '../support/session-table-writes.ts';

it('a second write of the same shape in the same file is a write of its own', () => {
  const source = `
    await q.query('UPDATE sessions SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id', [id]);
    await q.query('UPDATE sessions SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL', [userId]);`;
  expect(sessionTableWrites(source)).toEqual([
    'UPDATE sessions SET revoked_at',
    'UPDATE sessions SET revoked_at',
  ]);
});

it('writes of every shape are found', () => {
  const source = `
    await q.query('UPDATE ONLY users SET totp_enabled = false WHERE id = $1', [id]);
    await q.query('UPDATE public.sessions AS s SET expires_at = now() WHERE s.user_id = $1', [id]);
    await q.query('update "users" u set "password_hash" = $2 where u.id = $1', [id, hash]);
    await q.query('DELETE FROM ONLY workspace_members WHERE user_id = $1', [id]);
    await q.query('TRUNCATE TABLE jobs, public.sessions RESTART IDENTITY');
    await q.query(\`INSERT INTO workspace_members (workspace_id, user_id, role) VALUES ($1, $2, 'viewer')
      ON CONFLICT (workspace_id, user_id) DO UPDATE SET role = EXCLUDED.role\`, [workspaceId, id]);
    await q.query('INSERT INTO workspace_members (workspace_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING', [w, id]);
    await q.query('MERGE INTO workspaces w USING x ON w.id = x.id WHEN MATCHED THEN DELETE');
    await q.query('UPDATE sessions_archive SET moved = true');`;
  expect(sessionTableWrites(source)).toEqual([
    'UPDATE users SET totp_enabled',
    'UPDATE sessions SET expires_at',
    'UPDATE users SET password_hash',
    'DELETE FROM workspace_members',
    'TRUNCATE sessions',
    'INSERT … DO UPDATE workspace_members',
    'MERGE INTO workspaces',
  ]);
});

it('a migration is looked at as well as the TypeScript', () => {
  const root = mkdtempSync(path.join(tmpdir(), 'session-writes-'));
  try {
    writeFileSync(path.join(root, '0036_end_sessions.sql'), 'UPDATE sessions SET revoked_at = now();\n');
    writeFileSync(path.join(root, 'reader.ts'), "await q.query('SELECT * FROM sessions');\n");
    expect(sessionTableWritesUnder(root)).toEqual(['0036_end_sessions.sql: UPDATE sessions SET revoked_at']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});
