/**
 * Counts the statements a call sends that read a session or a membership, for the session cache's
 * tests: a cached session sends none.
 */
import { vi } from 'vitest';
import type { Database } from '../../src/db/types.ts';

const SESSION_TABLES = /\b(sessions|workspace_members)\b/;

export async function sessionStatements(db: Database, call: () => Promise<unknown>): Promise<number> {
  const spy = vi.spyOn(db, 'query');
  try {
    await call();
    return spy.mock.calls.filter(([text]) => SESSION_TABLES.test(String(text))).length;
  } finally {
    spy.mockRestore();
  }
}

/**
 * Calls until one call sends no session statement: on PostgreSQL the cache keeps nothing until its
 * LISTEN is in place, which takes a moment after the first lookup. True when that happened in time.
 */
export async function untilCached(db: Database, call: () => Promise<unknown>, tries = 50): Promise<boolean> {
  for (let i = 0; i < tries; i++) {
    if ((await sessionStatements(db, call)) === 0) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}
