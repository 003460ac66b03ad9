import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, onRealPostgres } from '../../test/support/database.ts';
import { until } from '../../test/support/until.ts';
import type { Database, ListenEvent } from './types.ts';

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
