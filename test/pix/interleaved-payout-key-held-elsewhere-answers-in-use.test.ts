/**
 * A payout whose Idempotency-Key another transaction holds (a request still running, maybe in another
 * process) waits for it at most the key's wait limit, then is answered 409 idempotency_key_in_use,
 * also when it shares an interleaved batch with other payouts (src/db/group-commit.ts): the claim of
 * the batch's first key must not lift that limit for the keys claimed after it in the same
 * transaction, nor make it wait its limit twice (once in the attempt, once in the savepoint run
 * after it). PostgreSQL only (PGlite has one connection: nothing else can hold a key).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { onRealPostgres } from '../support/database.ts';
import { CPF, startWorld, type World } from '../support/world.ts';

const PAYOUT = '/v1/sandbox/pix/payouts';
/** The key's wait limit (src/platform/idempotency.ts) is 10 s; the holder keeps it well past that. */
const HOLD_MS = 28_000;
/** The limit, the gate held below and a second of the interleaved attempt's own wait, with room. */
const ANSWERED_WITHIN_MS = 16_000;

describe.skipIf(!onRealPostgres())('a key held by another transaction, in an interleaved batch', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ sandboxSettleMs: 0 });
  });
  afterAll(() => world.close());

  it('is answered idempotency_key_in_use within the wait limit; the batch’s other payouts pass', async () => {
    const ws = await world.workspace('Key held elsewhere', { settlementKey: true, fund: '100000' });
    let holding!: () => void;
    const held = new Promise<void>((resolve) => {
      holding = resolve;
    });
    let answered!: () => void;
    const blockedAnswered = new Promise<void>((resolve) => {
      answered = resolve;
    });
    // Another request's transaction: it has claimed the key and not committed yet.
    const holder = world.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO idempotency_keys (workspace_id, environment, caller, key, request_hash, method, path, money_moving)
         VALUES ($1, 'sandbox', 'workspace', 'held-elsewhere', '\\x00', 'POST', $2, true)`,
        [ws.owner.workspaceId, PAYOUT],
      );
      holding();
      // It lets go once the payout behind it is answered, or after HOLD_MS when that one waits on.
      await Promise.race([blockedAnswered, new Promise((resolve) => setTimeout(resolve, HOLD_MS))]);
      throw new Error('rolled back on purpose');
    });
    holder.catch(() => {});
    await held;

    // The workspace's ledger gate, held for a moment: the first payout's batch waits on it, and the two
    // sent behind it queue meanwhile, so they share the next batch, the fresh key claimed first.
    const gate = world.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock(7466116, hashtext($1::text))', [
        ws.owner.workspaceId.toLowerCase(),
      ]);
      await new Promise((resolve) => setTimeout(resolve, 1500));
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    const body = { amount_minor: '1000', pix_key: CPF };
    const pause = () => new Promise((resolve) => setTimeout(resolve, 300));
    const first = ws.api.post(PAYOUT, body, { 'idempotency-key': 'first' });
    await pause();
    const fresh = ws.api.post(PAYOUT, body, { 'idempotency-key': 'fresh' });
    await pause();
    const blocked = await ws.api.post(PAYOUT, body, { 'idempotency-key': 'held-elsewhere' });
    answered();
    const elapsed = Date.now() - started;
    await gate;
    await holder.catch(() => {});
    const [firstRes, freshRes] = await Promise.all([first, fresh]);
    expect(firstRes.statusCode, firstRes.body).toBe(200);
    expect(freshRes.statusCode, freshRes.body).toBe(200);
    expect(blocked.statusCode, blocked.body).toBe(409);
    expect(blocked.json().error).toBe('idempotency_key_in_use');
    // Not twice the limit: the interleaved attempt gives up soon, and the savepoint run waits the limit.
    expect(elapsed).toBeLessThan(ANSWERED_WITHIN_MS);
    expect(await ws.paymentCount('pix_cash_out')).toBe(2);
  }, 60_000);
});
