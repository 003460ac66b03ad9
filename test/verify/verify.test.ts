/**
 * `lastro verify` on a world where every money-moving flow ran: clean, it passes; then each check is
 * broken behind the service's back (direct SQL) and must name what was broken.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/db/types.ts';
import { accountId, partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { sealJournals } from '../../src/ledger/seal.ts';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import { newId } from '../../src/platform/ids.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { openWorkspace } from '../support/world.ts';
import { type BusyWorld, busyWorld } from './world.ts';

let ctx: TestContext;
let world: BusyWorld;
let workspaceId: string;
let partyId: string;

beforeAll(async () => {
  ctx = await startTestApp({ sandboxSettleMs: 0 });
  world = await busyWorld(ctx);
  workspaceId = world.ws.owner.workspaceId;
  partyId = world.ws.owner.defaultPartyId;
  while ((await sealJournals(ctx.deps)) > 0);
}, 120_000);
afterAll(() => ctx.close());

const report = () => verifyBooks(ctx.db, 1000);
async function violationsOf(check: string) {
  const found = (await report()).checks.find((c) => c.name === check);
  expect(found, check).toBeDefined();
  return found!.examples;
}
/** Runs SQL the service would never run: triggers (append-only ledger) are off for this transaction. */
const behindTheBack = (fn: (tx: Tx) => Promise<unknown>) =>
  ctx.db.transaction(async (tx) => {
    await tx.query(`SET LOCAL session_replication_role = replica`);
    await fn(tx);
  });
const postingOf = async (paymentId: string) => {
  const { rows } = await ctx.db.query<{ id: string; journal_id: string }>(
    `SELECT p.id, p.journal_id FROM ledger_postings p JOIN ledger_journals j ON j.id = p.journal_id
      WHERE j.reference_id = $1 ORDER BY p.id LIMIT 1`,
    [paymentId],
  );
  return rows[0]!;
};

describe('lastro verify', () => {
  it('passes on a clean world where every flow ran, in every final and open state', async () => {
    const clean = await report();
    expect(clean.checks.filter((c) => c.violations > 0)).toEqual([]);
    expect(clean.ok).toBe(true);
    const { rows } = await ctx.db.query<{ kind: string; status: string }>(
      'SELECT DISTINCT kind, status FROM payments ORDER BY 1, 2',
    );
    expect(rows.map((r) => `${r.kind}:${r.status}`)).toEqual([
      'crypto_deposit:completed',
      'crypto_send:completed',
      'pix_cash_in:completed',
      'pix_cash_in:expired',
      'pix_cash_out:completed',
      'pix_cash_out:created',
      'pix_cash_out:failed',
      'pix_refund:completed',
      'rfq_settlement:completed',
    ]);
    expect(clean.chain.unsealed).toBe(0);
    expect(clean.chain.links).toBe(clean.counts.journals);
  });

  it('catches a posting edited behind the service: the seal chain no longer matches', async () => {
    const posting = await postingOf(world.ids.conversion);
    await behindTheBack((tx) =>
      tx.query('UPDATE ledger_postings SET amount = amount + 1 WHERE id = $1', [posting.id]),
    );
    const broken = await violationsOf('seal_chain');
    expect(broken.map((b) => b.detail)).toContainEqual(expect.stringContaining(posting.journal_id));
    await behindTheBack((tx) =>
      tx.query('UPDATE ledger_postings SET amount = amount - 1 WHERE id = $1', [posting.id]),
    );
    expect(await violationsOf('seal_chain')).toEqual([]);
  });

  it('catches a balance that is not the replay of its postings', async () => {
    const account = accountId(systemAccount.feeRevenue(workspaceId, 'sandbox', 'BRL'));
    await ctx.db.query('UPDATE ledger_balances SET balance = balance + 7 WHERE account_id = $1', [account]);
    expect((await violationsOf('balance_replay')).map((v) => v.subject)).toContain(account);
    await ctx.db.query('UPDATE ledger_balances SET balance = balance - 7 WHERE account_id = $1', [account]);
  });

  it('catches a negative party balance', async () => {
    const account = accountId(partyAccount(workspaceId, 'sandbox', partyId, 'BRL', 'pending'));
    await ctx.db.query(
      `INSERT INTO ledger_accounts (id, workspace_id, environment, party_id, currency, kind) VALUES ($1, $2, 'sandbox', $3, 'BRL', 'pending')`,
      [account, workspaceId, partyId],
    );
    await ctx.db.query(
      `INSERT INTO ledger_balances (workspace_id, account_id, non_negative, balance) VALUES ($1, $2, false, -5)`,
      [workspaceId, account],
    );
    expect((await violationsOf('negative_party_balance')).map((v) => v.subject)).toContain(account);
    await ctx.db.query('UPDATE ledger_balances SET balance = 0 WHERE workspace_id = $1 AND account_id = $2', [
      workspaceId,
      account,
    ]);
  });

  it('catches a journal that does not sum to zero, and one of no payment', async () => {
    const journal = newId();
    const payment = newId();
    await ctx.db.transaction(async (tx) => {
      await tx.query(
        `INSERT INTO ledger_journals (id, workspace_id, environment, reference_type, reference_id, posted_at)
         VALUES ($1, $2, 'sandbox', 'payment', $3, now())`,
        [journal, workspaceId, payment],
      );
      const settlement = systemAccount.pixSettlement(workspaceId, 'sandbox');
      for (const [direction, amount] of [
        ['debit', 100n],
        ['credit', 90n],
      ] as const)
        await tx.query(
          `INSERT INTO ledger_postings (id, journal_id, account_id, workspace_id, environment, currency, kind, direction, amount, posted_at)
           VALUES ($1, $2, $3, $4, 'sandbox', 'BRL', 'pix_settlement', $5, $6, now())`,
          [newId(), journal, accountId(settlement), workspaceId, direction, amount],
        );
    });
    expect((await violationsOf('journal_balances')).map((v) => v.subject)).toContain(journal);
    expect((await violationsOf('orphan_journal')).map((v) => v.subject)).toContain(journal);
  });

  it("catches a journal without postings, and a posting to another workspace's account", async () => {
    const empty = newId();
    await ctx.db.query(
      `INSERT INTO ledger_journals (id, workspace_id, environment, reference_type, reference_id, posted_at)
       VALUES ($1, $2, 'sandbox', 'payment', $3, now())`,
      [empty, workspaceId, world.ids.cashIn],
    );
    expect((await violationsOf('journal_postings')).map((v) => v.subject)).toContain(empty);
    const other = await openWorkspace(ctx, 'Outra Ltda');
    await other.fund('1000');
    const foreign = accountId(
      partyAccount(other.owner.workspaceId, 'sandbox', other.owner.defaultPartyId, 'BRL'),
    );
    const posting = newId();
    // Only ledger_post writes postings, and it takes accounts by the journal's own workspace; one
    // written around it (by hand, a restore gone wrong) has no key to stop it, and verify finds it.
    await ctx.db.query(
      `INSERT INTO ledger_postings (id, journal_id, account_id, workspace_id, environment, currency, kind, direction, amount, posted_at)
       VALUES ($1, $2, $3, $4, 'sandbox', 'BRL', 'available', 'credit', 1, now())`,
      [posting, empty, foreign, other.owner.workspaceId],
    );
    const found = await violationsOf('cross_workspace_posting');
    expect(found).toContainEqual({
      subject: posting,
      detail: 'posting without its journal in its workspace',
    });
  });

  // A payment keeps its key to its party, and a party its key to its workspace: only a journal and an
  // event can name a workspace that does not exist.
  it('catches a journal and an event of a workspace that does not exist', async () => {
    const nowhere = newId();
    const [journal, event] = [newId(), newId()];
    await ctx.db.query(
      `INSERT INTO ledger_journals (id, workspace_id, environment, reference_type, reference_id, posted_at)
       VALUES ($1, $2, 'sandbox', 'payment', $3, now())`,
      [journal, nowhere, newId()],
    );
    await ctx.db.query(
      `INSERT INTO events (id, workspace_id, environment, type, payload) VALUES ($1, $2, 'sandbox', 'party.created', '{}')`,
      [event, nowhere],
    );
    const found = (await violationsOf('unknown_workspace')).map((v) => v.subject);
    expect(found).toEqual(expect.arrayContaining([journal, event]));
  });

  it('catches a payment whose postings are not what its kind and status require', async () => {
    await ctx.db.query('UPDATE payments SET amount_minor = amount_minor + 1 WHERE id = $1', [
      world.ids.payout,
    ]);
    await ctx.db.query(`UPDATE payments SET status = 'processing' WHERE id = $1`, [world.ids.failedPayout]);
    const wrong = (await violationsOf('payment_postings')).map((v) => v.subject);
    expect(wrong).toContain(world.ids.payout);
    expect(wrong).toContain(world.ids.failedPayout);
    expect(wrong).not.toContain(world.ids.openPayout);
  });

  it('catches an event for a status its payment never entered', async () => {
    // failedPayout was moved back to processing above: its payment.failed event no longer fits.
    const events = await violationsOf('payment_events');
    expect(events.map((v) => v.subject)).toContain(world.ids.failedPayout);
    await ctx.db.query(
      `INSERT INTO events (id, workspace_id, environment, type, payload) VALUES ($1, $2, 'sandbox', 'payment.failed', $3)`,
      [newId(), workspaceId, { data: { object: { id: world.ids.send, status: 'failed' } } }],
    );
    expect((await violationsOf('payment_events')).map((v) => v.subject)).toContain(world.ids.send);
  });

  it('catches an idempotency key that produced two payments', async () => {
    await ctx.db.query(`UPDATE payments SET idempotency_key = 'twice' WHERE id = ANY($1)`, [
      [world.ids.payout, world.ids.openPayout],
    ]);
    const reused = await violationsOf('idempotency_key_reuse');
    expect(reused.map((v) => v.subject)).toContain(`${workspaceId}/sandbox/twice`);
  });

  it('catches a delivery that belongs to no event of its endpoint', async () => {
    const { rows } = await ctx.db.query<{ endpoint_id: string }>(
      'SELECT endpoint_id FROM webhook_deliveries WHERE workspace_id = $1 LIMIT 1',
      [workspaceId],
    );
    const delivery = newId();
    await behindTheBack((tx) =>
      tx.query(
        `INSERT INTO webhook_deliveries (workspace_id, id, environment, endpoint_id, event_id, event_type, url, created_at, next_attempt_at)
         VALUES ($1, $2, 'sandbox', $3, $4, 'payment.created', 'https://example.com', now(), now())`,
        [workspaceId, delivery, rows[0]!.endpoint_id, newId()],
      ),
    );
    expect((await violationsOf('delivery_without_event')).map((v) => v.subject)).toContain(delivery);
    expect((await report()).ok).toBe(false);
  });
});
