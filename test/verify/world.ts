/** A world where every money-moving flow has run once over HTTP, each left in a known state. */
import { expect } from 'vitest';
import { type CryptoWorkspace, cryptoWorkspace, drainJobs, OUTSIDE, SEND } from '../crypto/support.ts';
import type { TestContext } from '../support/app.ts';
import { CPF } from '../support/world.ts';

export interface BusyWorld {
  ws: CryptoWorkspace;
  /** Payment ids by what happened to them. */
  ids: Record<
    | 'paidCharge'
    | 'expiredCharge'
    | 'payout'
    | 'failedPayout'
    | 'openPayout'
    | 'refund'
    | 'deposit'
    | 'send'
    | 'conversion'
    | 'splitCharge'
    | 'cashIn',
    string
  >;
  splitParty: string;
}

export async function busyWorld(ctx: TestContext): Promise<BusyWorld> {
  const ws = await cryptoWorkspace(ctx, 'Livros Ltda');
  const ok = async (res: Promise<{ statusCode: number; body: string; json(): { data: { id: string } } }>) => {
    const answered = await res;
    expect(answered.statusCode, answered.body).toBe(200);
    return answered.json().data;
  };
  await ok(ws.api.post('/v1/sandbox/webhooks/endpoints', { url: 'https://example.com/hooks' }));
  await ws.setSettlementKey();
  const cashIn = await ws.fund('500000');
  const charge = await ok(ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '20000' }));
  await ok(ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`, {}));
  const expired = await ok(ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '700' }));
  await ok(ws.api.post(`/v1/sandbox/simulate/payments/${expired.id}/expire`, {}));
  const refund = await ok(ws.api.post(`/v1/sandbox/payments/${charge.id}/refund`, { amount_minor: '5000' }));
  const payout = await ok(ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '3000', pix_key: CPF }));
  const failed = await ok(ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '4000', pix_key: CPF }));
  await ok(ws.api.post(`/v1/sandbox/simulate/payments/${failed.id}/fail`, {}));
  await drainJobs(ctx);
  ctx.clock.advance(60_000);
  await drainJobs(ctx);
  const wallet = await ws.wallet('polygon');
  const deposit = await ws.deposit(wallet.id, '100000000');
  await ws.whitelist('polygon', OUTSIDE.evm);
  const send = await ok(
    ws.api.post(SEND, {
      amount_minor: '1000000',
      to_address: OUTSIDE.evm,
      network: 'polygon',
      currency: 'USDT',
    }),
  );
  const quote = await ok(
    ws.api.post('/v1/sandbox/rfq/quote', {
      base_amount_minor: '100000',
      base_currency: 'BRL',
      quote_currency: 'USDT',
    }),
  );
  const conversion = await ok(ws.api.post('/v1/sandbox/rfq/execute', { quote_id: quote.id }));
  const splitParty = await ws.addParty('Autora');
  const link = (await ok(
    ws.api.post('/v1/sandbox/payment-links', { amount_minor: '5000', title: 'Livro' }),
  )) as unknown as {
    id: string;
    slug: string;
  };
  await ok(
    ws.api.put(`/v1/sandbox/payment-links/${link.id}/splits`, {
      splits: [{ party_id: splitParty, share_bps: 3000 }],
    }),
  );
  const started = await ctx.app.inject({
    method: 'POST',
    url: `/pay/${link.slug}/checkout`,
    payload: { payer: { name: 'João da Silva', document: CPF } },
  });
  expect(started.statusCode, started.body).toBe(200);
  const splitCharge = started.json().data.id as string;
  await ok(ws.api.post(`/v1/sandbox/simulate/payments/${splitCharge}/pay`, {}));
  await drainJobs(ctx);
  ctx.clock.advance(60_000);
  await drainJobs(ctx);
  const open = await ok(ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '1500', pix_key: CPF }));
  return {
    ws,
    splitParty,
    ids: {
      cashIn: cashIn.id,
      paidCharge: charge.id,
      expiredCharge: expired.id,
      refund: refund.id,
      payout: payout.id,
      failedPayout: failed.id,
      openPayout: open.id,
      deposit: deposit.id,
      send: send.id,
      conversion: conversion.id,
      splitCharge,
    },
  };
}
