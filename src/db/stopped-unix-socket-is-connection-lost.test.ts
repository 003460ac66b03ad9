/**
 * PostgreSQL on a Unix socket: a server that is stopped
 * removes its socket file, so connecting fails with ENOENT, which was not counted as "the database is
 * gone". Every request during a restart answered 500 instead of 503 database_unavailable with
 * Retry-After. Any DATABASE_URL with ?host=/a/socket/dir does it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { toAppError } from '../platform/http-errors.ts';
import { isConnectionError } from './connection-errors.ts';
import { openPostgres } from './postgres.ts';

describe('PostgreSQL on a Unix socket whose server is stopped', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'lastro-no-socket-'));
  const db = openPostgres(
    `postgres://postgres@localhost/lastro?host=${encodeURIComponent(dir)}&port=5999`,
    1,
  );
  afterAll(async () => {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails as a lost database: 503 database_unavailable with Retry-After, not 500', async () => {
    const error = await db.query('SELECT 1').then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect((error as { code?: string }).code).toBe('ENOENT');
    expect(isConnectionError(error)).toBe(true);
    const request = { log: { warn: () => {} } } as unknown as FastifyRequest;
    const answer = toAppError(error as Error, request);
    expect(answer.code).toBe('database_unavailable');
    expect(answer.status).toBe(503);
    expect(answer.headers?.['retry-after']).toBe('1');
  });

  it('is not confused with a missing file elsewhere (no connect syscall)', () => {
    expect(
      isConnectionError(Object.assign(new Error('no such file'), { code: 'ENOENT', syscall: 'open' })),
    ).toBe(false);
  });
});
