import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onRealPostgres } from '../../test/support/database.ts';
import type { Database, ListenEvent } from './types.ts';

async function until(check: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; ) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return check();
}

describe.runIf(onRealPostgres())('a LISTEN whose connection is killed', () => {
  let db: Database;
  afterAll(() => db?.close());

  it('says it was lost, listens again and hears the next notification', async () => {
    db = await createTestDatabase();
    const events: ListenEvent[] = [];
    db.listen!('lastro_listen_test', (event) => events.push(event));
    expect(await until(() => events.includes('ready'), 10_000)).toBe(true);
    await db.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
        WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
    );
    expect(await until(() => events.filter((e) => e === 'ready').length === 2, 15_000)).toBe(true);
    expect(events.slice(0, 3)).toEqual(['ready', 'lost', 'ready']);
    await db.query("SELECT pg_notify('lastro_listen_test', '')");
    expect(await until(() => events.includes('message'), 10_000)).toBe(true);
  }, 40_000);
});
