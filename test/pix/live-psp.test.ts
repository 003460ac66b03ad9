/**
 * Live PIX end to end against the fake PSP (test/support/fakes/pix-psp.ts), which speaks the API Pix
 * and Efí's payout API over mutual TLS: a charge created there and paid by its callback is credited
 * once; a refund and payouts settle by callback or by poll; a failed payout returns the money; a
 * callback without our secret, or that the PSP's API does not confirm, moves nothing.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { expireDueCharges } from '../../src/modules/pix/charge-payment.ts';
import { pollLiveCharges } from '../../src/modules/pix/notifications/charge-poll.ts';
import { pixWebhookRegistration } from '../../src/modules/pix/notifications/webhook-registration.ts';
import { pixTransfers } from '../../src/modules/pix/transfers.ts';
import { BcbPixProvider } from '../../src/providers/pix/bcb/provider.ts';
import { expectBooksVerified } from '../support/books.ts';
import { FAKE_PIX_KEY, FAKE_WEBHOOK_SECRET, fakeEndToEndId } from '../support/fakes/pix-psp.ts';
import { CPF } from '../support/world.ts';
import { liveWorkspace, pspIdOf, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp, webhookUrl } = live;
afterAll(() => live.close());

const notifications = async (paymentId: string) =>
  (
    await world.db.query<{ kind: string; outcome: string }>(
      'SELECT kind, outcome FROM psp_notifications WHERE payment_id = $1 ORDER BY received_at, id',
      [paymentId],
    )
  ).rows;
const countNotifications = async () =>
  (await world.db.query<{ n: number }>('SELECT count(*)::int AS n FROM psp_notifications')).rows[0]!.n;

/** A live workspace with a charge of `amount` created at the PSP and paid by its callback. */
async function paidLiveCharge(name: string, amount = '10000') {
  const { ws, live: api } = await liveWorkspace(world, name);
  const created = await api.post('/v1/live/pix/charges', { amount_minor: amount, description: 'Pedido 42' });
  expect(created.statusCode, created.body).toBe(200);
  const charge = created.json().data;
  const paid = await psp.pay(charge.pix_txid);
  expect(paid.callback).toMatchObject({ status: 200, body: { data: { received: 1, settled: 1 } } });
  return { ws, api, charge, endToEndId: paid.endToEndId };
}

describe('webhook registration', () => {
  it('registers PUT /webhook/{chave} with the secret in the URL, and retries when the PSP is down', async () => {
    expect(psp.webhooks.get(FAKE_PIX_KEY)).toBe(`${webhookUrl}?hmac=${FAKE_WEBHOOK_SECRET}&ignorar=`);
    psp.webhooks.clear();
    const fresh = new BcbPixProvider(psp.settings(webhookUrl), world.clock);
    const deps = { ...world.deps, providers: world.deps.providers.replacing('pix', 'live', fresh) };
    psp.failNext({ path: /^\/v2\/webhook\//, status: 503 });
    await expect(pixWebhookRegistration.run(deps)).rejects.toMatchObject({ code: 'provider_unavailable' });
    expect(psp.webhooks.size).toBe(0);
    await pixWebhookRegistration.run(deps);
    expect(psp.webhooks.get(FAKE_PIX_KEY)).toContain('hmac=');
  });
});

describe('live charges', () => {
  it('creates the cob at the PSP with our txid, paid by callback, credited once', async () => {
    const { ws, api, charge, endToEndId } = await paidLiveCharge('Live charge');
    expect(charge.pix_txid).toBe(pspIdOf(charge.id));
    const cob = psp.cobs.get(charge.pix_txid)!;
    expect(cob).toMatchObject({ valor: '100.00', chave: FAKE_PIX_KEY });
    expect(charge.pix_qr_code).toBe(cob.pixCopiaECola);
    const done = (await api.get(`/v1/live/payments/${charge.id}`)).json().data;
    expect(done).toMatchObject({ status: 'completed', pix_tx_id: endToEndId });
    expect(await ws.balances('live')).toMatchObject({ available: '10000', locked: '0' });

    // The PSP delivers the same callback twice more, once alongside an item that is not ours.
    const again = await psp.callback({ pix: [cob.pix[0]] });
    expect(again).toMatchObject({ status: 200, body: { data: { received: 1, settled: 0 } } });
    const mixed = await psp.callback({ pix: [cob.pix[0], { endToEndId: fakeEndToEndId(), valor: '1.00' }] });
    expect(mixed).toMatchObject({ status: 200, body: { data: { received: 2, settled: 0 } } });
    expect(await ws.balances('live')).toMatchObject({ available: '10000', locked: '0' });
    expect((await notifications(charge.id)).map((n) => n.outcome).sort()).toEqual([
      'duplicate',
      'duplicate',
      'settled',
    ]);
  });

  it('a charge whose callback never comes is credited by the poll, and the late callback moves nothing', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Live charge poll');
    const charge = (await api.post('/v1/live/pix/charges', { amount_minor: '3300' })).json().data;
    const { endToEndId } = await psp.pay(charge.pix_txid, false);
    await pollLiveCharges(world.deps);
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data).toMatchObject({
      status: 'completed',
      pix_tx_id: endToEndId,
    });
    const late = await psp.callback({ pix: [psp.cobs.get(charge.pix_txid)!.pix[0]] });
    expect(late).toMatchObject({ status: 200, body: { data: { settled: 0 } } });
    await pollLiveCharges(world.deps);
    expect(await ws.balances('live')).toMatchObject({ available: '3300' });
  });

  it('answers 503 and records nothing when the PSP fails or is too slow, and reuses its token', async () => {
    const { live: api, ws } = await liveWorkspace(world, 'Live charge failures');
    const tokens = psp.tokensIssued();
    psp.failNext({ path: /^\/v2\/cob\//, status: 500 });
    const failed = await api.post('/v1/live/pix/charges', { amount_minor: '500' });
    expect(failed.statusCode, failed.body).toBe(503);
    expect(failed.json().error).toBe('provider_unavailable');
    psp.delayMs = 3500;
    const slow = await api.post('/v1/live/pix/charges', { amount_minor: '500' });
    psp.delayMs = 0;
    expect(slow.statusCode, slow.body).toBe(503);
    expect(await ws.paymentCount('pix_cash_in', 'live')).toBe(0);
    const ok = await api.post('/v1/live/pix/charges', { amount_minor: '500' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(psp.tokensIssued()).toBe(tokens);

    // A token the PSP forgot is replaced once, and the call goes through.
    psp.revokeTokens();
    const after = await api.post('/v1/live/pix/charges', { amount_minor: '600' });
    expect(after.statusCode, after.body).toBe(200);
    expect(psp.tokensIssued()).toBe(tokens + 1);
  }, 30_000);

  it('a client certificate the PSP does not trust gets 503, never a charge', async () => {
    const stranger = new BcbPixProvider(
      psp.settings(webhookUrl, {
        certFile: live.certs.strangerCertFile,
        keyFile: live.certs.strangerKeyFile,
      }),
      world.clock,
    );
    await expect(
      stranger.createCharge({
        paymentId: '0190f0f0-0000-7000-8000-000000000001',
        amountMinor: 100n,
        expiresAt: new Date(Date.now() + 60_000),
      }),
    ).rejects.toMatchObject({ code: 'provider_unavailable' });
    expect(psp.cobs.has('0190f0f0000070008000000000000001')).toBe(false);
  });
});

describe('notifications that move nothing', () => {
  it('refuses a callback without our secret or with a wrong one, recording nothing', async () => {
    const { live: api } = await liveWorkspace(world, 'Forged');
    const charge = (await api.post('/v1/live/pix/charges', { amount_minor: '700' })).json().data;
    const before = await countNotifications();
    const item = {
      endToEndId: fakeEndToEndId(),
      txid: charge.pix_txid,
      valor: '7.00',
      horario: new Date().toISOString(),
    };
    const none = await psp.callback({ pix: [item] }, `${webhookUrl}/pix`);
    expect(none).toMatchObject({ status: 401, body: { error: 'missing_credentials' } });
    const wrong = await psp.callback(
      { pix: [item] },
      `${webhookUrl}?hmac=${FAKE_WEBHOOK_SECRET}x&ignorar=/pix`,
    );
    expect(wrong).toMatchObject({ status: 401, body: { error: 'invalid_credentials' } });
    expect(await countNotifications()).toBe(before);
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('created');
  });

  it('a PIX on a charge that expired here is recorded as rejected for an operator, crediting nothing', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Expired');
    const charge = (
      await api.post('/v1/live/pix/charges', { amount_minor: '900', expires_in_seconds: 60 })
    ).json().data;
    world.clock.advance(61_000);
    await expireDueCharges(world.deps);
    // A live charge expires once the poll finds it unpaid at the PSP.
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('created');
    await pollLiveCharges(world.deps);
    const paid = await psp.pay(charge.pix_txid);
    expect(paid.callback).toMatchObject({ status: 200, body: { data: { received: 1, settled: 0 } } });
    expect(await notifications(charge.id)).toEqual([{ kind: 'charge', outcome: 'rejected' }]);
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('expired');
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
  });

  it('records an authentic callback the PSP API does not confirm, and malformed ones, moving nothing', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Unconfirmed');
    const charge = (await api.post('/v1/live/pix/charges', { amount_minor: '700' })).json().data;
    const item = {
      endToEndId: fakeEndToEndId(),
      txid: charge.pix_txid,
      valor: '7.00',
      horario: new Date().toISOString(),
    };
    const unconfirmed = await psp.callback({ pix: [item] });
    expect(unconfirmed).toMatchObject({ status: 200, body: { data: { received: 1, settled: 0 } } });
    expect(await notifications(charge.id)).toEqual([{ kind: 'charge', outcome: 'unconfirmed' }]);
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('created');

    const before = await countNotifications();
    for (const body of [
      { hello: 'world' },
      { pix: ['x', { txid: 5 }, { gnExtras: { idEnvio: 'not-ours' } }] },
    ]) {
      const res = await psp.callback(body);
      expect(res.status).toBe(200);
    }
    const { rows } = await world.db.query<{ kind: string; outcome: string }>(
      'SELECT kind, outcome FROM psp_notifications ORDER BY received_at DESC, id DESC LIMIT 4',
    );
    expect(await countNotifications()).toBe(before + 4);
    expect(rows.map((r) => r.outcome).sort()).toEqual(['malformed', 'malformed', 'malformed', 'malformed']);
    expect(await ws.balances('live')).toMatchObject({ available: '0' });
  });
});

describe('live refunds', () => {
  it('PUT /pix/{e2eid}/devolucao/{id}, settled by the callback of its outcome', async () => {
    const { ws, api, charge, endToEndId } = await paidLiveCharge('Live refund');
    const refund = await api.post(`/v1/live/payments/${charge.id}/refund`, { amount_minor: '4000' });
    expect(refund.statusCode, refund.body).toBe(200);
    const refundId: string = refund.json().data.id;
    expect(await ws.balances('live')).toMatchObject({ available: '6000', locked: '4000' });
    await world.drainJobs();
    const atPsp = psp.refunds.get(`${endToEndId}/${pspIdOf(refundId)}`);
    expect(atPsp).toMatchObject({ valor: '40.00', status: 'EM_PROCESSAMENTO' });
    expect((await api.get(`/v1/live/payments/${refundId}`)).json().data.status).toBe('processing');

    const outcome = await psp.settleRefund(pspIdOf(refundId), 'DEVOLVIDO');
    expect(outcome).toMatchObject({ status: 200, body: { data: { received: 1, settled: 1 } } });
    expect((await api.get(`/v1/live/payments/${refundId}`)).json().data.status).toBe('completed');
    expect(await ws.balances('live')).toMatchObject({ available: '6000', locked: '0' });
    // the callback again (the charge's item repeated with it) moves nothing
    await psp.settleRefund(pspIdOf(refundId), 'DEVOLVIDO');
    await world.drainJobs();
    expect(await ws.balances('live')).toMatchObject({ available: '6000', locked: '0' });
    expect(await notifications(refundId)).toEqual([
      { kind: 'refund', outcome: 'settled' },
      { kind: 'refund', outcome: 'duplicate' },
    ]);
  });
});

describe('a refused refund', () => {
  it('NAO_REALIZADO fails the refund and gives the money back to the party', async () => {
    const { ws, api, charge } = await paidLiveCharge('Live refund refused', '5000');
    const refund = await api.post(`/v1/live/payments/${charge.id}/refund`, {});
    expect(refund.statusCode, refund.body).toBe(200);
    const refundId: string = refund.json().data.id;
    await world.drainJobs();
    expect(await ws.balances('live')).toMatchObject({ available: '0', locked: '5000' });
    const outcome = await psp.settleRefund(pspIdOf(refundId), 'NAO_REALIZADO');
    expect(outcome).toMatchObject({ status: 200, body: { data: { settled: 1 } } });
    expect((await api.get(`/v1/live/payments/${refundId}`)).json().data.status).toBe('failed');
    expect((await api.get(`/v1/live/payments/${charge.id}`)).json().data.status).toBe('completed');
    expect(await ws.balances('live')).toMatchObject({ available: '5000', locked: '0' });
  });
});

describe('live payouts (Efí)', () => {
  let payoutsBefore = 0;
  async function fundedPayout(name: string, amount: string) {
    const { ws, api } = await paidLiveCharge(name);
    payoutsBefore = psp.payouts.size;
    const payout = await api.post('/v1/live/pix/payouts', { amount_minor: amount, pix_key: CPF });
    expect(payout.statusCode, payout.body).toBe(200);
    await world.drainJobs();
    const id: string = payout.json().data.id;
    expect(psp.payouts.get(pspIdOf(id))).toMatchObject({
      status: 'EM_PROCESSAMENTO',
      chave: 'tesouraria@acme.com.br',
    });
    return { ws, api, id };
  }

  it('PUT /v3/gn/pix/{idEnvio}, completed by the webhook', async () => {
    const { ws, api, id } = await fundedPayout('Payout webhook', '2500');
    expect(psp.payouts.get(pspIdOf(id))!.valor).toBe('25.00');
    expect(await ws.balances('live')).toMatchObject({ available: '7400', locked: '2600' });
    const outcome = await psp.settlePayout(pspIdOf(id), 'REALIZADO');
    expect(outcome).toMatchObject({ status: 200, body: { data: { received: 1, settled: 1 } } });
    const done = (await api.get(`/v1/live/payments/${id}`)).json().data;
    expect(done).toMatchObject({ status: 'completed', pix_tx_id: psp.payouts.get(pspIdOf(id))!.e2eId });
    expect(await ws.balances('live')).toMatchObject({ available: '7400', locked: '0' });
    expect(await ws.eventTypes(id)).toEqual(['payment.created', 'payment.processing', 'payment.completed']);
  });

  it('completed by the poll when no webhook comes; a repeated send names the same idEnvio', async () => {
    const { ws, api, id } = await fundedPayout('Payout poll', '3000');
    // A send repeated (a job retried after a lost answer): the PSP refuses the idEnvio it has, and
    // the payout it has stands.
    const job = { paymentId: id, workspaceId: ws.owner.workspaceId, environment: 'live' as const };
    expect(await pixTransfers.send(world.deps, job)).toEqual({ done: true });
    expect(psp.payouts.size).toBe(payoutsBefore + 1);
    await psp.settlePayout(pspIdOf(id), 'REALIZADO', false);
    world.clock.advance(10_000);
    await world.drainJobs();
    expect((await api.get(`/v1/live/payments/${id}`)).json().data.status).toBe('completed');
    expect(await ws.balances('live')).toMatchObject({ available: '6900', locked: '0' });
    expect(
      psp.calls.filter((c) => c.method === 'PUT' && c.path === `/v3/gn/pix/${pspIdOf(id)}`),
    ).toHaveLength(2);
  });

  it('NAO_REALIZADO fails the payout and returns amount and fee', async () => {
    const { ws, api, id } = await fundedPayout('Payout failed', '2000');
    expect(await ws.balances('live')).toMatchObject({ available: '7900', locked: '2100' });
    const outcome = await psp.settlePayout(pspIdOf(id), 'NAO_REALIZADO');
    expect(outcome).toMatchObject({ status: 200, body: { data: { settled: 1 } } });
    expect((await api.get(`/v1/live/payments/${id}`)).json().data).toMatchObject({
      status: 'failed',
      failure_reason: 'psp_refused:NAO_REALIZADO',
    });
    expect(await ws.balances('live')).toMatchObject({ available: '10000', locked: '0' });
  });

  it('a PSP 5xx on the send leaves it to the retry; the payout goes out once', async () => {
    const { ws, api } = await paidLiveCharge('Payout retry');
    psp.failNext({ path: /^\/v3\/gn\/pix\//, status: 502 });
    const payout = await api.post('/v1/live/pix/payouts', { amount_minor: '1000', pix_key: CPF });
    const id: string = payout.json().data.id;
    await world.drainJobs();
    expect((await api.get(`/v1/live/payments/${id}`)).json().data.status).toBe('created');
    world.clock.advance(120_000);
    await world.drainJobs();
    expect((await api.get(`/v1/live/payments/${id}`)).json().data.status).toBe('processing');
    await psp.settlePayout(pspIdOf(id), 'REALIZADO');
    expect(await ws.balances('live')).toMatchObject({ available: '8900', locked: '0' });
  });
});

describe('the books after every live PIX flow above', () => {
  it('lastro verify finds nothing wrong and the seal chain covers every journal', async () => {
    await expectBooksVerified(world.deps);
  });
});
