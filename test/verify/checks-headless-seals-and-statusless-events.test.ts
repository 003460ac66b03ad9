/**
 * Two gaps of lastro verify:
 * - seal_chain walked only the workspaces that have a head row (ledger_seal_heads): links of a
 *   workspace whose head was deleted were never recomputed, so a tampered journal passed once its
 *   head was removed as well.
 * - payment_events compared each event's status with bool_and(status = type): an event whose payload
 *   has no status compares as NULL, which bool_and skips, so such an event was never reported.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Tx } from '../../src/db/types.ts';
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { postJournal } from '../../src/ledger/ledger.ts';
import { sealJournals } from '../../src/ledger/seal.ts';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { openWorkspace } from '../support/world.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp({ sandboxSettleMs: 0 });
});
afterAll(() => ctx.close());

const behindTheBack = (fn: (tx: Tx) => Promise<unknown>) =>
  ctx.db.transaction(async (tx) => {
    await tx.query(`SET LOCAL session_replication_role = replica`);
    await fn(tx);
  });
const check = async (name: string) => (await verifyBooks(ctx.db, 100)).checks.find((c) => c.name === name)!;

it('a workspace whose seal head was deleted still has its links checked', async () => {
  const ws = await openWorkspace(ctx, 'Sem Cabeça Ltda');
  const workspaceId = ws.owner.workspaceId;
  const journal = await ctx.db.transaction((tx) =>
    postJournal(tx, {
      workspaceId,
      environment: 'sandbox',
      referenceType: 'reclassification',
      referenceId: 'x',
      postings: [
        { account: systemAccount.pixSettlement(workspaceId, 'sandbox'), direction: 'debit', amount: 10n },
        {
          account: partyAccount(workspaceId, 'sandbox', ws.owner.defaultPartyId, 'BRL'),
          direction: 'credit',
          amount: 10n,
        },
      ],
    }),
  );
  while ((await sealJournals(ctx.deps)) > 0);
  expect((await check('seal_chain')).violations).toBe(0);
  await behindTheBack(async (tx) => {
    await tx.query('UPDATE ledger_journals SET reference_id = $2 WHERE id = $1', [journal.id, 'tampered']);
    await tx.query('DELETE FROM ledger_seal_heads WHERE workspace_id = $1', [workspaceId]);
  });
  const chain = await check('seal_chain');
  expect(chain.violations).toBeGreaterThan(0);
  expect(chain.examples.map((e) => e.subject.split('#')[0])).toContain(workspaceId);
});

it('a payment event without a status in its payload is reported', async () => {
  const ws = await openWorkspace(ctx, 'Evento Ltda');
  const res = await ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '700' });
  expect(res.statusCode, res.body).toBe(200);
  const paymentId = res.json().data.id as string;
  expect((await check('payment_events')).violations).toBe(0);
  await behindTheBack((tx) =>
    tx.query(
      `UPDATE events SET payload = payload #- '{data,object,status}'
        WHERE type = 'payment.created' AND payload->'data'->'object'->>'id' = $1`,
      [paymentId],
    ),
  );
  const events = await check('payment_events');
  expect(events.examples.map((e) => e.subject)).toContain(paymentId);
});
