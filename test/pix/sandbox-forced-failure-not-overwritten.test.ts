/**
 * SandboxPixProvider.getStatus once read a transfer, then settled it with
 * `UPDATE … SET status = … WHERE payment_id = $1` — no `AND status = 'processing'` guard. A worker
 * that read the transfer just before a sandbox helper forced an outcome overwrites that outcome.
 * Sequence here: the worker's send job reads the transfer (processing, due); the /fail helper forces
 * `failed` and the payment is failed (amount + fee back to available); the worker then writes
 * `completed` over it. The PSP now says the money left (with an end-to-end id) while the ledger gave
 * it back: the ledger and the PSP disagree, and the money exists twice.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { SandboxPixProvider } from '../../src/providers/pix/sandbox.ts';
import { runJobs } from '../../src/worker.ts';
import { useSandboxPix } from '../support/providers.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());

describe('sandbox PSP vs helper race', () => {
  it('a forced failure is not overwritten by a stale automatic settlement', async () => {
    const ws = await world.workspace('PSP race', { settlementKey: true, fund: '10000' });
    const created = await ws.api.post('/v1/sandbox/pix/payouts', {
      amount_minor: '1000',
      pix_key: 'a@b.com',
    });
    expect(created.statusCode, created.body).toBe(200);
    const id = created.json().data.id as string;

    // The worker's provider: its first status read pauses until released (a slow worker).
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    let reached!: () => void;
    const atGate = new Promise<void>((r) => {
      reached = r;
    });
    let gated = false;
    const real = world.db;
    const slowDb: Database = {
      ...real,
      kind: real.kind,
      transaction: real.transaction.bind(real),
      close: real.close.bind(real),
      exec: real.exec.bind(real),
      async query(text, params) {
        const result = await real.query(text, params);
        if (!gated && text.startsWith('SELECT * FROM sandbox_pix_transfers')) {
          gated = true;
          reached();
          await gate;
        }
        return result as never;
      },
    };
    const workerProvider = new SandboxPixProvider(slowDb, world.clock, 0);
    const restore = useSandboxPix(world.deps, workerProvider);
    try {
      const worker = runJobs(world.deps);
      await atGate;
      const failed = await ws.api.post(`/v1/sandbox/simulate/payments/${id}/fail`, {});
      expect(failed.statusCode, failed.body).toBe(200);
      expect(failed.json().data.status).toBe('failed');
      release();
      await worker;
    } finally {
      restore();
    }

    const payment = (await ws.api.get(`/v1/sandbox/payments/${id}`)).json().data;
    expect(payment.status).toBe('failed');
    expect(await ws.balances()).toMatchObject({ available: '10000', locked: '0' });
    const { rows } = await world.db.query<{ status: string }>(
      'SELECT status FROM sandbox_pix_transfers WHERE payment_id = $1',
      [id],
    );
    // The PSP must agree with the ledger: the transfer failed, no money left.
    expect(rows[0]?.status).toBe('failed');
  });
});
