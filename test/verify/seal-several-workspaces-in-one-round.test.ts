/**
 * One sealer round finds journals of several workspaces. On Citus their seal heads are on several
 * shards, where locking them in one statement is refused: the round seals each workspace on its own
 * shard there, and every journal is chained on every database.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sealJournals } from '../../src/ledger/seal.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { expectBooksVerified, sealerDeps } from '../support/books.ts';
import { openWorkspace } from '../support/world.ts';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx.close());

it('seals the journals of eight workspaces found in one round, and the books verify', async () => {
  for (let i = 0; i < 8; i++) await openWorkspace(ctx, `Selos ${i} Ltda`, { fund: '1000' });
  expect(await sealJournals(sealerDeps(ctx))).toBeGreaterThanOrEqual(8);
  await expectBooksVerified(ctx.deps);
});
