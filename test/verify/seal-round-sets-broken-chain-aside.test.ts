/**
 * The sealer seals a round in one transaction. A workspace whose chain cannot be extended (its head
 * deleted behind the service's back, so its next link collides with seq 1) failed the whole round,
 * every round, and no other workspace was sealed again. The others are now sealed apart from it, and
 * it is left out of the rounds for a minute (a backlog of its own could otherwise fill every round).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../src/db/types.ts';
import { sealJournals } from '../../src/ledger/seal.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { postTenCentavos, sealerDeps } from '../support/books.ts';
import { openWorkspace } from '../support/world.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

const sealed = async (journalId: string) =>
  (await ctx.db.query('SELECT 1 FROM ledger_seals WHERE journal_id = $1', [journalId])).rows.length === 1;

it('a workspace with a broken chain does not stop the others being sealed', async () => {
  const [broken, healthy] = [
    await openWorkspace(ctx, 'Quebrada Ltda'),
    await openWorkspace(ctx, 'Sadia Ltda'),
  ];
  const post = (ws: typeof broken) =>
    ctx.db.transaction((tx) => postTenCentavos(tx, ws.owner.workspaceId, ws.owner.defaultPartyId));
  await post(broken);
  await post(healthy);
  while ((await sealJournals(ctx.deps)) > 0);
  await ctx.db.query('DELETE FROM ledger_seal_heads WHERE workspace_id = $1', [broken.owner.workspaceId]);
  const [stuck, next] = [await post(broken), await post(healthy)];
  await expect(sealJournals(ctx.deps)).rejects.toThrow(/duplicate key/);
  expect(await sealed(next.id)).toBe(true);
  expect(await sealed(stuck.id)).toBe(false);
  // Set aside for a minute, the broken workspace no longer fails the rounds of the others.
  const later = await post(healthy);
  expect(await sealJournals(ctx.deps)).toBe(1);
  expect(await sealed(later.id)).toBe(true);
  ctx.clock.advance(60_000);
  await expect(sealJournals(ctx.deps)).rejects.toThrow(/duplicate key/);
  // Its head put back where its last link is, the chain goes on.
  await ctx.db.query(
    `INSERT INTO ledger_seal_heads (workspace_id, seq, hash)
     SELECT workspace_id, seq, hash FROM ledger_seals WHERE workspace_id = $1 ORDER BY seq DESC LIMIT 1
     ON CONFLICT (workspace_id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash`,
    [broken.owner.workspaceId],
  );
  ctx.clock.advance(60_000);
  while ((await sealJournals(ctx.deps)) > 0);
  expect(await sealed(stuck.id)).toBe(true);
});

it('a round that fails for the database, not for a chain, sets nothing aside', async () => {
  const ws = await openWorkspace(ctx, 'Lenta Ltda');
  let failures = 1;
  const deps = sealerDeps(ctx, function (this: Database, ...args) {
    if (failures-- > 0)
      return Promise.reject(
        Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      );
    return this.transaction(...args);
  });
  const journal = await ctx.db.transaction((tx) =>
    postTenCentavos(tx, ws.owner.workspaceId, ws.owner.defaultPartyId),
  );
  await expect(sealJournals(deps)).rejects.toThrow(/statement timeout/);
  while ((await sealJournals(deps)) > 0);
  expect(await sealed(journal.id)).toBe(true);
});
