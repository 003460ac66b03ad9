/**
 * Races on a real PostgreSQL server (PGlite runs one transaction at a time, so it proves nothing):
 * two workspaces claiming one slug, and checkouts racing split replacements.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { onRealPostgres } from '../support/database.ts';
import { CPF, LINKS, type LinksWorkspace, linksWorkspace, payer, startCheckout } from './support.ts';

describe.skipIf(!onRealPostgres())('payment links under concurrency (PostgreSQL)', () => {
  let ctx: TestContext;
  let ws: LinksWorkspace;

  beforeAll(async () => {
    ctx = await startTestApp();
    ws = await linksWorkspace(ctx);
  });
  afterAll(() => ctx.close());

  it('of many workspaces claiming one slug at once, exactly one gets it; the others 409 slug_taken', async () => {
    const shops = await Promise.all(Array.from({ length: 6 }, (_, i) => linksWorkspace(ctx, `Loja ${i}`)));
    const results = await Promise.all(
      shops.map((shop) => shop.api.post(LINKS, { amount_minor: '100', slug: 'disputado' })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    expect(results.filter((r) => r.statusCode === 409).every((r) => r.json().error === 'slug_taken')).toBe(
      true,
    );
    const { rows } = await ctx.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM payment_links WHERE slug = 'disputado'`,
    );
    expect(rows[0]!.n).toBe(1);
  });

  it('a checkout racing split replacements freezes one whole set, never a mix', async () => {
    const [a, b, c, d] = [
      await ws.addParty('A'),
      await ws.addParty('B'),
      await ws.addParty('C'),
      await ws.addParty('D'),
    ];
    const sets = [
      [
        { party_id: a, share_bps: 1000 },
        { party_id: b, share_bps: 2000 },
      ],
      [
        { party_id: c, share_bps: 3000 },
        { party_id: d, share_bps: 4000 },
      ],
    ];
    const link = await ws.createLink({ amount_minor: '1000' });
    await ws.api.put(`${LINKS}/${link.id}/splits`, { splits: sets[0] });
    const work = [];
    for (let i = 0; i < 12; i++) {
      work.push(startCheckout(ctx, link.slug, payer(CPF)));
      work.push(ws.api.put(`${LINKS}/${link.id}/splits`, { splits: sets[(i + 1) % 2] }));
    }
    const results = await Promise.all(work);
    expect(results.map((r) => r.statusCode).every((s) => s === 200)).toBe(true);
    const { rows } = await ctx.db.query<{ splits: { party_id: string; share_bps: number }[] }>(
      'SELECT splits FROM payment_link_payments WHERE payment_link_id = $1',
      [link.id],
    );
    expect(rows).toHaveLength(12);
    const whole = sets.map((set) =>
      JSON.stringify(set.map(({ party_id, share_bps }) => [party_id, share_bps])),
    );
    for (const row of rows) {
      expect(whole).toContain(JSON.stringify(row.splits.map((s) => [s.party_id, s.share_bps])));
    }
  });
});
