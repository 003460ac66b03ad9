/**
 * API.md gives `POST /v1/sandbox/simulate/payments/{id}/fail {failure_reason?}`: the body is
 * optional. The route (src/modules/pix/routes/simulate.ts:53-55) wraps its body schema in
 * Type.Optional, which @fastify/swagger ignores: /openapi.json says `requestBody.required: true`.
 * A caller who follows the document must send a body; one who follows API.md sends none. The two must
 * agree, and a body-less call must work.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace('Fail body', { settlementKey: true, fund: '10000' });

describe('simulate /fail without a body', () => {
  it('fails the payout and returns the money; the document does not require a body', async () => {
    const payout = await ws.api.post('/v1/sandbox/pix/payouts', {
      amount_minor: '1000',
      pix_key: '52998224725',
    });
    expect(payout.statusCode, payout.body).toBe(200);
    const res = await world.app.inject({
      method: 'POST',
      url: `/v1/sandbox/simulate/payments/${payout.json().data.id}/fail`,
      headers: { authorization: `Bearer ${ws.apiKey}`, 'x-workspace-id': ws.owner.workspaceId },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('failed');
    expect(await ws.balances()).toMatchObject({ available: '10000', locked: '0' });

    const document = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const body = document.paths['/v1/{env}/simulate/payments/{id}/fail'].post.requestBody;
    expect(body.required).not.toBe(true);
  });
});
