/**
 * lastro.list() once followed whatever cursor a page gave; a page that gives the
 * cursor it was asked with (a server or proxy that ignores `cursor`) looped forever, yielding the
 * same items again. A repeated cursor now ends the list with an error instead.
 */
import { expect, it } from 'vitest';
import { Lastro } from '../../packages/sdk/src/index.ts';

const item = (id: string) => ({ id, kind: 'pix_cash_in', status: 'created' });

it('a page that repeats the cursor ends the list with an error, not an endless loop', async () => {
  let calls = 0;
  const lastro = new Lastro({
    apiKey: 'lastro_test_sk_x',
    workspaceId: 'ws',
    // The cursor is ignored: every page is the same full page, whose last id is the next cursor.
    fetch: async () => {
      calls++;
      return Response.json({ data: [item('b'), item('a')] });
    },
  });
  const seen: string[] = [];
  const walk = async () => {
    for await (const payment of lastro.list('/v1/{env}/payments', { params: { query: { limit: 2 } } })) {
      seen.push(payment.id);
      if (seen.length > 20) throw new Error('the list never ended');
    }
  };
  await expect(walk()).rejects.toThrow(/cursor/);
  expect(calls).toBe(2);
  expect(seen).toEqual(['b', 'a', 'b', 'a']);
});
