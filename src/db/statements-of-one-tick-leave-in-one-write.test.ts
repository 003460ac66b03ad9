import net from 'node:net';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { createTestDatabase, onRealPostgres } from '../../test/support/database.ts';
import type { Database } from './types.ts';

describe.runIf(onRealPostgres())('statements a transaction issues in one tick', () => {
  let db: Database;
  afterAll(() => db?.close());

  it('leave in one socket write, and each still gets its own answer', async () => {
    db = await createTestDatabase();
    await db.exec('CREATE TABLE tallies (id int PRIMARY KEY, n int NOT NULL)');
    const writes = { single: 0, vectored: 0 };
    const answers = await db.transaction(async (tx) => {
      await tx.query('SELECT 1');
      const single = vi.spyOn(net.Socket.prototype as unknown as { _write: () => void }, '_write');
      const vectored = vi.spyOn(net.Socket.prototype as unknown as { _writev: () => void }, '_writev');
      try {
        const sent = [1, 2, 3].map((id) =>
          tx.query<{ n: number }>('INSERT INTO tallies VALUES ($1, $2) RETURNING n', [id, id * 10]),
        );
        const rows = await Promise.all(sent);
        writes.single = single.mock.calls.length;
        writes.vectored = vectored.mock.calls.length;
        return rows.map((result) => result.rows[0]?.n);
      } finally {
        single.mockRestore();
        vectored.mockRestore();
      }
    });
    expect(answers).toEqual([10, 20, 30]);
    expect(writes).toEqual({ single: 0, vectored: 1 });
    const { rows } = await db.query<{ n: number }>('SELECT sum(n)::int AS n FROM tallies');
    expect(rows[0]?.n).toBe(60);
  });
});
