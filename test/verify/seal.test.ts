/**
 * The sealer chains every committed journal per workspace, late ones included: a journal whose id
 * sorts before journals already sealed (it committed later) gets the next link, and the chain checks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { checkChains, sealJournals, uuidv7Floor } from '../../src/ledger/seal.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { postTenCentavos, sealerDeps } from '../support/books.ts';
import { openWorkspace } from '../support/world.ts';

let ctx: TestContext;
let workspaceId: string;
let partyId: string;

beforeAll(async () => {
  ctx = await startTestApp();
  const ws = await openWorkspace(ctx, 'Selos Ltda');
  workspaceId = ws.owner.workspaceId;
  partyId = ws.owner.defaultPartyId;
});
afterAll(() => ctx.close());

/** A journal posted with a chosen id, as if its transaction had started at `ms`. */
async function journalAt(ms: number, workspace = workspaceId, party = partyId): Promise<string> {
  const id = uuidv7Floor(ms).replace(
    /0{12}$/,
    Math.floor(Math.random() * 1e12)
      .toString(16)
      .padStart(12, '0'),
  );
  await ctx.db.transaction(async (tx) => {
    const posted = await postTenCentavos(tx, workspace, party);
    // The journal id is the one thing a late commit changes: rewrite it before commit.
    await tx.query(`SET LOCAL session_replication_role = replica`);
    await tx.query('UPDATE ledger_postings SET journal_id = $2 WHERE journal_id = $1', [posted.id, id]);
    await tx.query('UPDATE ledger_journals SET id = $2 WHERE id = $1', [posted.id, id]);
  });
  return id;
}
/** A sealer of its own that counts the transactions it opens. */
function countingSealer() {
  const counted = { transactions: 0 };
  const deps = sealerDeps(ctx, function (this: Database, ...args) {
    counted.transactions++;
    return this.transaction(...args);
  });
  return { deps, counted };
}
const sealAll = async (deps = ctx.deps) => {
  while ((await sealJournals(deps)) > 0);
};
const linkOf = async (journalId: string) =>
  (await ctx.db.query<{ seq: bigint }>('SELECT seq FROM ledger_seals WHERE journal_id = $1', [journalId]))
    .rows[0]?.seq;

describe('the ledger sealer', () => {
  it('chains a journal that commits after a higher id was sealed, in seal order', async () => {
    const now = Date.now();
    const first = await journalAt(now);
    await sealAll();
    const late = await journalAt(now - 60_000);
    expect(late < first).toBe(true);
    // Older than the 30 s most rounds look back: the ten-minute window's next sweep chains it.
    await sealAll();
    expect(await linkOf(late)).toBeUndefined();
    ctx.clock.advance(10_000);
    await sealAll();
    expect(await linkOf(late)).toBe((await linkOf(first))! + 1n);
    const chain = await checkChains(ctx.db);
    expect(chain).toMatchObject({ problems: 0, unsealed: 0 });
  });

  it('chains a straggler older than its window on the next full sweep', async () => {
    const old = await journalAt(Date.now() - 3600_000);
    await sealAll();
    expect(await linkOf(old)).toBeUndefined();
    // A new process (its first round is a full sweep) finds it.
    await sealAll(sealerDeps(ctx));
    expect(await linkOf(old)).toBeDefined();
    expect(await checkChains(ctx.db)).toMatchObject({ problems: 0, unsealed: 0 });
  });

  it('seals a round over several workspaces in one transaction, each on its own chain', async () => {
    await sealAll();
    const others = [await openWorkspace(ctx, 'Selos Dois'), await openWorkspace(ctx, 'Selos Tres')];
    const now = Date.now();
    for (const [index, ws] of others.entries())
      for (let i = 0; i <= index + 1; i++)
        await journalAt(now + i, ws.owner.workspaceId, ws.owner.defaultPartyId);
    await journalAt(now);
    const { deps, counted } = countingSealer();
    expect(await sealJournals(deps)).toBeGreaterThanOrEqual(6);
    expect(counted.transactions).toBe(1);
    expect(await checkChains(ctx.db)).toMatchObject({ problems: 0, unsealed: 0 });
    for (const [index, ws] of others.entries()) {
      const { rows } = await ctx.db.query<{ links: bigint; head: bigint }>(
        `SELECT count(*)::bigint AS links, (SELECT seq FROM ledger_seal_heads WHERE workspace_id = $1) AS head
           FROM ledger_seals WHERE workspace_id = $1`,
        [ws.owner.workspaceId],
      );
      expect(rows[0]!.head).toBe(rows[0]!.links);
      expect(rows[0]!.links).toBeGreaterThanOrEqual(BigInt(index + 2));
    }
  });

  it('two sealers racing over the same workspaces chain each journal once', async () => {
    const others = [await openWorkspace(ctx, 'Corrida Um'), await openWorkspace(ctx, 'Corrida Dois')];
    await sealAll();
    const now = Date.now();
    for (let i = 0; i < 20; i++) {
      const ws = others[i % 2]!.owner;
      await journalAt(
        now + i,
        i % 3 === 0 ? workspaceId : ws.workspaceId,
        i % 3 === 0 ? partyId : ws.defaultPartyId,
      );
    }
    const [a, b] = [countingSealer(), countingSealer()];
    const [sealedByA, sealedByB] = await Promise.all([sealJournals(a.deps), sealJournals(b.deps)]);
    expect(sealedByA + sealedByB).toBe(20);
    expect(await checkChains(ctx.db)).toMatchObject({ problems: 0, unsealed: 0 });
  });

  it('finds a link removed or reordered behind its back', async () => {
    await ctx.db.transaction(async (tx) => {
      await tx.query(`SET LOCAL session_replication_role = replica`);
      await tx.query(
        `DELETE FROM ledger_seals WHERE workspace_id = $1 AND seq = (SELECT min(seq) + 1 FROM ledger_seals WHERE workspace_id = $1)`,
        [workspaceId],
      );
    });
    const chain = await checkChains(ctx.db);
    expect(chain.problems).toBeGreaterThan(0);
    expect(chain.broken[0]!.issue).toMatch(/gap/);
  });
});
