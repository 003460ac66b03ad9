/**
 * Payment link bodies refuse fields they do not know: `expire_at` for `expires_at` made a link that
 * never expires, a design key the page does not draw vanished, and a PATCH of a field a link cannot
 * change answered 200 and changed nothing. Each is now 400 naming the field, and nothing is written.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { LINKS, type LinksWorkspace, linksWorkspace } from './support.ts';

let ctx: TestContext;
let ws: LinksWorkspace;

beforeAll(async () => {
  ctx = await startTestApp();
  ws = await linksWorkspace(ctx);
});
afterAll(() => ctx.close());

const linkCount = async () =>
  (await ctx.db.query<{ n: number }>('SELECT count(*)::int AS n FROM payment_links')).rows[0]!.n;

async function refusedCreate(body: Record<string, unknown>) {
  const before = await linkCount();
  const res = await ws.api.post(LINKS, body);
  expect(res.statusCode, res.body).toBe(400);
  expect(res.json().error).toBe('invalid_request');
  expect(await linkCount()).toBe(before);
  return res.json().details;
}

describe('payment link bodies', () => {
  it('a link with expire_at is refused', async () => {
    const expireAt = new Date(Date.now() + 3_600_000).toISOString();
    expect(await refusedCreate({ amount_minor: '5000', expire_at: expireAt })).toEqual([
      { field: 'body.expire_at', issue: 'unknown field' },
    ]);
  });

  it('a design key the page does not know is refused, with every unknown field named at once', async () => {
    const details = await refusedCreate({
      amount_minor: '5000',
      design: { brand_color: '#0b5fff', font: 'Comic Sans' },
      expire_at: '2030-01-01T00:00:00Z',
    });
    expect(details).toEqual(
      expect.arrayContaining([
        { field: 'body.design.font', issue: 'unknown field' },
        { field: 'body.expire_at', issue: 'unknown field' },
      ]),
    );
    expect(details).toHaveLength(2);
  });

  it('a PATCH with a field a link cannot change (amount_minor) is refused and changes nothing', async () => {
    const link = await ws.createLink({ amount_minor: '5000', title: 'Camiseta' });
    const res = await ws.api.patch(`${LINKS}/${link.id}`, { title: 'Nova', amount_minor: '1' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details).toEqual([{ field: 'body.amount_minor', issue: 'unknown field' }]);
    const after = (await ws.api.get(`${LINKS}/${link.id}`)).json().data;
    expect(after).toMatchObject({ title: 'Camiseta', amount_minor: '5000' });
  });
});
