/**
 * Under a soak (96 clients, PostgreSQL fast stop) the API process died of an unhandled 'error'
 * event (57P01). pg-pool hands a released client to a waiting connect() inside the parse of the same
 * socket's chunk and takes its idle 'error' listener off; our transaction() adds its own only when
 * its `await pool.connect()` resumes. An ErrorResponse right behind the ReadyForQuery in that chunk
 * found no listener. The handoff that happens mid-parse comes from a `db.query` (pool.query releases in
 * its query callback) to a waiting transaction. Here the error is emitted in exactly that gap (a microtask queued at the
 * handoff runs before the waiter's continuation). Run with TEST_DATABASE_URL=postgres://….
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { isConnectionError } from '../../src/db/connection-errors.ts';
import { openPostgres } from '../../src/db/postgres.ts';
import { onRealPostgres } from '../support/database.ts';
import { testServerUrl } from '../support/database-url.ts';

describe.skipIf(!onRealPostgres())('a client handed from one transaction to the next', () => {
  const db = onRealPostgres() ? openPostgres(testServerUrl()!, 1) : undefined;
  const originalEmit = pg.Pool.prototype.emit;
  afterAll(async () => {
    pg.Pool.prototype.emit = originalEmit;
    await db?.close();
  });

  /**
   * Holds the pool's one client in a transaction, queues `second` behind it, then lets the first end:
   * at that handoff `inGap` runs on the client in a microtask, before the waiter's continuation.
   */
  async function handOff<T>(second: () => Promise<T>, inGap: (client: pg.PoolClient) => void) {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = db!.transaction(async (tx) => {
      await tx.query('SELECT 1');
      await gate;
      return 'first';
    });
    await new Promise((resolve) => setTimeout(resolve, 50)); // the first holds the pool's one client
    const waiting = second();
    pg.Pool.prototype.emit = function (this: pg.Pool, event: string | symbol, ...args: unknown[]) {
      if (event === 'acquire') {
        pg.Pool.prototype.emit = originalEmit;
        const client = args[0] as pg.PoolClient;
        queueMicrotask(() => inGap(client));
      }
      return originalEmit.call(this, event, ...args);
    } as typeof pg.Pool.prototype.emit;
    open();
    return Promise.allSettled([first, waiting]);
  }

  it('survives an error event between the handoff and the waiter taking the client', async () => {
    await db!.query('SELECT 1'); // the pool's one client exists
    let crashed: unknown;
    const outcomes = await handOff(
      () => db!.transaction(async (tx) => (await tx.query<{ n: number }>('SELECT 2 AS n')).rows[0]!.n),
      (client) => {
        try {
          client.emit('error', new Error('terminating connection due to administrator command'));
        } catch (error) {
          crashed = error; // an 'error' event nobody listens to throws: in the service, the process ends
        }
      },
    );
    expect(crashed).toBeUndefined();
    expect(outcomes[0]).toEqual({ status: 'fulfilled', value: 'first' });
    // The emitted error is synthetic (the socket is fine), so the second transaction runs to its end.
    expect(outcomes[1]).toEqual({ status: 'fulfilled', value: 2 });
    expect(await db!.query<{ ok: number }>('SELECT 1 AS ok')).toMatchObject({ rows: [{ ok: 1 }] });
  });

  it('a client that really died in the gap fails the waiting transaction as a lost connection, not the process', async () => {
    const [, outcome] = await handOff(
      () => db!.transaction((tx) => tx.query('SELECT 2')),
      // pg's own path for a dead socket: not queryable any more, every query errored, 'error' emitted.
      (client) =>
        (client as pg.PoolClient & { _handleErrorEvent(error: Error): void })._handleErrorEvent(
          new Error('Connection terminated unexpectedly'),
        ),
    );
    expect(outcome.status).toBe('rejected');
    expect(isConnectionError((outcome as PromiseRejectedResult).reason)).toBe(true);
    // The dead client left the pool; the next statement gets a fresh connection.
    expect(await db!.query<{ ok: number }>('SELECT 1 AS ok')).toMatchObject({ rows: [{ ok: 1 }] });
  });
});
