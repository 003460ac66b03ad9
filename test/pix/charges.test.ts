/**
 * PIX charges (cash-in): the BR Code checked by an independent parser (pix-utils), expiry, payer
 * validation, QR images, paying (net to the party, fee to fee revenue) and expiring.
 */
import { hasError, parsePix } from 'pix-utils';
import { afterAll, describe, expect, it } from 'vitest';
import { expireDueCharges } from '../../src/modules/pix/charge-payment.ts';
import { SANDBOX_COLLECTION_KEY } from '../../src/providers/pix/sandbox.ts';
import { CNPJ, CPF, enableProduction, startWorld } from '../support/world.ts';

const CHARGES = '/v1/sandbox/pix/charges';
const E2E = /^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$/;

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());
const ws = await world.workspace();

async function charge(body: Record<string, unknown>, w = ws) {
  const res = await w.api.post(CHARGES, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** CRC16-CCITT-FALSE written again here, so the check does not lean on the code under test. */
function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

/** Top-level EMV fields (id → value); checks every length on the way. */
function emvFields(code: string): Map<string, string> {
  const fields = new Map<string, string>();
  let i = 0;
  while (i < code.length) {
    const id = code.slice(i, i + 2);
    const length = Number(code.slice(i + 2, i + 4));
    expect(Number.isInteger(length) && length > 0, `field ${id} length`).toBe(true);
    fields.set(id, code.slice(i + 4, i + 4 + length));
    i += 4 + length;
  }
  expect(i).toBe(code.length);
  return fields;
}

describe('BR Code', () => {
  it('parses with pix-utils: valid CRC, the amount, the txid (= pix_txid), the collection key', async () => {
    for (const [amount, decimal] of [
      ['1', 0.01],
      ['100', 1],
      ['12345', 123.45],
      ['999999999999', 9999999999.99],
    ] as const) {
      const payment = await charge({ amount_minor: amount, description: 'Pedido 42' });
      expect(payment).toMatchObject({
        kind: 'pix_cash_in',
        status: 'created',
        amount_minor: amount,
        currency: 'BRL',
        fee_minor: '0',
      });
      expect(payment.pix_txid).toMatch(/^[A-Za-z0-9]{1,25}$/);
      const parsed = parsePix(payment.pix_qr_code);
      expect(hasError(parsed), JSON.stringify(parsed)).toBe(false);
      if (hasError(parsed) || parsed.type !== 'STATIC') throw new Error('not a static BR Code');
      expect(parsed.transactionAmount).toBe(decimal);
      expect(parsed.txid).toBe(payment.pix_txid);
      expect(parsed.pixKey).toBe(SANDBOX_COLLECTION_KEY);
      expect(parsed.merchantName).toBe('LASTRO SANDBOX');
      expect(parsed.transactionCurrency).toBe('986');
      expect(parsed.countryCode).toBe('BR');
      // CRC16-CCITT-FALSE over everything up to and including "6304"
      const code: string = payment.pix_qr_code;
      expect(code.slice(-8, -4)).toBe('6304');
      expect(code.slice(-4)).toBe(crc16(code.slice(0, -4)));
      // EMV: field 54 at most 13 characters, every field at most 99
      const fields = emvFields(code);
      expect(fields.get('54')!.length).toBeLessThanOrEqual(13);
    }
  });

  it('a tampered code fails the CRC check of pix-utils', async () => {
    const payment = await charge({ amount_minor: '5000' });
    const code: string = payment.pix_qr_code;
    const tampered = code.replace('540550.00', '540590.00');
    expect(tampered).not.toBe(code);
    expect(hasError(parsePix(tampered))).toBe(true);
  });

  it('a long description (up to the 140 the API takes) still makes a valid BR Code', async () => {
    for (const description of [
      'x'.repeat(37),
      'x'.repeat(38),
      'Pagamento do pedido 12345 da loja Acme',
      'é'.repeat(140),
    ]) {
      const res = await ws.api.post(CHARGES, { amount_minor: '1000', description });
      expect(res.statusCode, res.body).toBe(200);
      const code = res.json().data.pix_qr_code;
      expect(hasError(parsePix(code))).toBe(false);
      for (const value of emvFields(code).values()) expect(value.length).toBeLessThanOrEqual(99);
    }
  });

  it('a description with nothing printable in EMV leaves no empty field', async () => {
    const payment = await charge({ amount_minor: '1000', description: '!!!' });
    const account = emvFields(emvFields(payment.pix_qr_code).get('26')!);
    expect(account.has('02')).toBe(false);
  });

  it('an amount too large for field 54 (13 characters) → 400 invalid_amount', async () => {
    for (const amount of ['1000000000000', '9999999999999999']) {
      const res = await ws.api.post(CHARGES, { amount_minor: amount });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('invalid_amount');
    }
  });
});

describe('validation', () => {
  it('expires_at defaults to 24 h; expires_in_seconds 60..604800, 59 and 604801 → 400', async () => {
    const before = world.clock.now().getTime();
    const payment = await charge({ amount_minor: '1000' });
    const expires = Date.parse(payment.expires_at);
    expect(expires - Date.parse(payment.created_at)).toBe(86_400_000);
    expect(expires).toBeGreaterThanOrEqual(before + 86_400_000);
    for (const seconds of [60, 604800]) {
      const p = await charge({ amount_minor: '1000', expires_in_seconds: seconds });
      expect(Date.parse(p.expires_at) - Date.parse(p.created_at)).toBe(seconds * 1000);
    }
    for (const seconds of [59, 604801, 0, -1, 3600.5, '3600']) {
      const res = await ws.api.post(CHARGES, { amount_minor: '1000', expires_in_seconds: seconds });
      expect(res.statusCode, `${seconds}: ${res.body}`).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });

  it('payer document must be a valid CPF or CNPJ; masks are accepted', async () => {
    for (const document of [CPF, '529.982.247-25', CNPJ, '11.222.333/0001-81']) {
      const p = await charge({ amount_minor: '1000', payer: { name: 'Bia', document } });
      const bare = document.replace(/[.\-/]/g, '');
      // Shown masked to its last two characters, as everywhere a payer document leaves the service.
      expect(p.counterparty).toMatchObject({
        name: 'Bia',
        document: `${'*'.repeat(bare.length - 2)}${bare.slice(-2)}`,
      });
    }
    for (const document of ['52998224724', '11111111111', '11222333000180', 'abc', '']) {
      const res = await ws.api.post(CHARGES, { amount_minor: '1000', payer: { name: 'Bia', document } });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
    const noName = await ws.api.post(CHARGES, { amount_minor: '1000', payer: { document: CPF } });
    expect(noName.statusCode).toBe(400);
  });

  it('bad amount or currency → 400; nothing is created', async () => {
    const count = await ws.paymentCount('pix_cash_in');
    for (const [body, code] of [
      [{ amount_minor: '0' }, 'invalid_amount'],
      [{ amount_minor: 'abc' }, 'invalid_amount'],
      [{ amount_minor: 100 }, 'invalid_amount'],
      [{ amount_minor: '1000', currency: 'USDT' }, 'unsupported_currency'],
      [{ amount_minor: '1000', currency: 'XYZ' }, 'unsupported_currency'],
    ] as const) {
      const res = await ws.api.post(CHARGES, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe(code);
    }
    expect(await ws.paymentCount('pix_cash_in')).toBe(count);
  });

  it('a charge in a currency PIX does not carry names body.currency', async () => {
    const res = await ws.api.post(CHARGES, { amount_minor: '1000', currency: 'USDC' });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'unsupported_currency',
      details: [{ field: 'body.currency', issue: 'must be BRL on PIX' }],
    });
  });

  it('live has no PIX provider: 503 provider_unavailable', async () => {
    const live = await world.workspace('Live charges');
    await enableProduction(world.app, live.owner);
    const res = await live.session.post('/v1/live/pix/charges', { amount_minor: '1000' });
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toBe('provider_unavailable');
    expect(await live.paymentCount('pix_cash_in', 'live')).toBe(0);
  });
});

describe('QR images', () => {
  it('qr.png is a PNG and qr.svg an SVG of the charge', async () => {
    const payment = await charge({ amount_minor: '1000' });
    const png = await ws.api.get(`/v1/sandbox/payments/${payment.id}/qr.png`);
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    expect([...png.rawPayload.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    const svg = await ws.api.get(`/v1/sandbox/payments/${payment.id}/qr.svg`);
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(svg.body).toMatch(/^<svg[\s\S]*<\/svg>\s*$/);
  });

  it('a payment without a QR code, an unknown id, another workspace → 404', async () => {
    await ws.cashIn('1000');
    const { rows } = await world.db.query<{ id: string }>(
      "SELECT id FROM payments WHERE workspace_id = $1 AND kind = 'pix_cash_in' AND pix_qr_code IS NULL LIMIT 1",
      [ws.owner.workspaceId],
    );
    for (const id of [rows[0]!.id, '0190f5a2-0000-7000-8000-000000000000']) {
      for (const ext of ['png', 'svg']) {
        const res = await ws.api.get(`/v1/sandbox/payments/${id}/qr.${ext}`);
        expect(res.statusCode).toBe(404);
        expect(res.json().error).toBe('not_found');
      }
    }
    const other = await world.workspace('Other');
    const payment = await charge({ amount_minor: '1000' });
    expect((await other.api.get(`/v1/sandbox/payments/${payment.id}/qr.png`)).statusCode).toBe(404);
  });
});

describe('paying and expiring', () => {
  it('pay credits the net amount to the party and the fee to fee revenue (a cash-in fee schedule)', async () => {
    const w = await world.workspace('Fees');
    await world.db.query(
      `INSERT INTO fee_schedules (workspace_id, environment, rail, fixed_minor, bps) VALUES ($1, 'sandbox', 'pix_cash_in', 50, 99)`,
      [w.owner.workspaceId],
    );
    const payment = await charge({ amount_minor: '10001' }, w);
    // 50 + ceil(10001 × 99 / 10000) = 50 + ceil(99.0099) = 150
    expect(payment.fee_minor).toBe('150');
    expect(await w.balances()).toMatchObject({ available: '0' });
    const paid = await w.api.post(`/v1/sandbox/simulate/payments/${payment.id}/pay`);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data).toMatchObject({ id: payment.id, status: 'completed' });
    expect(paid.json().data.pix_tx_id).toMatch(E2E);
    expect(paid.json().data.completed_at).toEqual(expect.any(String));
    expect(await w.balances()).toMatchObject({ available: '9851', locked: '0', pending: '0' });
    expect(await w.feeRevenue()).toBe(150n);
    expect(await w.settlementNet()).toBe(-10001n);
    expect(await w.eventTypes(payment.id)).toEqual(['payment.created', 'payment.completed']);
    // paid once
    const again = await w.api.post(`/v1/sandbox/simulate/payments/${payment.id}/pay`);
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('invalid_state');
    expect(await w.balances()).toMatchObject({ available: '9851' });
    // /complete of a charge pays it too
    const second = await charge({ amount_minor: '1000' }, w);
    const completed = await w.api.post(`/v1/sandbox/simulate/payments/${second.id}/complete`);
    expect(completed.json().data.status).toBe('completed');
    expect(await w.balances()).toMatchObject({ available: String(9851 + 1000 - 60) });
  });

  it('a charge not above its fee is refused', async () => {
    const w = await world.workspace('Fee too big');
    await world.db.query(
      `INSERT INTO fee_schedules (workspace_id, environment, rail, fixed_minor, bps) VALUES ($1, 'sandbox', 'pix_cash_in', 100, 0)`,
      [w.owner.workspaceId],
    );
    const res = await w.api.post(CHARGES, { amount_minor: '100' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      error: 'invalid_amount',
      details: [{ field: 'body.amount_minor', issue: 'must be more than the cash-in fee of 100' }],
    });
  });

  it('the sweeper expires charges past expires_at; an expired charge cannot be paid', async () => {
    const w = await world.workspace('Expiry');
    const short = await charge({ amount_minor: '1000', expires_in_seconds: 60 }, w);
    const long = await charge({ amount_minor: '1000', expires_in_seconds: 3600 }, w);
    await expireDueCharges(world.deps);
    expect((await w.api.get(`/v1/sandbox/payments/${short.id}`)).json().data.status).toBe('created');

    world.clock.advance(61_000);
    // past expires_at, before the sweeper ran: paying is already refused
    const late = await w.api.post(`/v1/sandbox/simulate/payments/${short.id}/pay`);
    expect(late.statusCode).toBe(422);
    expect(late.json().error).toBe('invalid_state');
    await expireDueCharges(world.deps);
    expect((await w.api.get(`/v1/sandbox/payments/${short.id}`)).json().data.status).toBe('expired');
    expect((await w.api.get(`/v1/sandbox/payments/${long.id}`)).json().data.status).toBe('created');
    expect(await w.eventTypes(short.id)).toEqual(['payment.created', 'payment.expired']);
    const paid = await w.api.post(`/v1/sandbox/simulate/payments/${short.id}/pay`);
    expect(paid.statusCode).toBe(422);
    expect(paid.json().error).toBe('invalid_state');
    expect(await w.balances()).toMatchObject({ available: '0' });
    // a second sweep changes nothing
    await expireDueCharges(world.deps);
    expect(await w.eventTypes(short.id)).toEqual(['payment.created', 'payment.expired']);
  });

  it('/expire expires a charge now; only an unpaid charge can expire', async () => {
    const w = await world.workspace('Expire helper');
    const payment = await charge({ amount_minor: '1000' }, w);
    const res = await w.api.post(`/v1/sandbox/simulate/payments/${payment.id}/expire`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.status).toBe('expired');
    expect(Date.parse(res.json().data.expires_at)).toBeLessThanOrEqual(world.clock.now().getTime());
    const paid = await w.api.post(`/v1/sandbox/simulate/payments/${payment.id}/pay`);
    expect(paid.statusCode).toBe(422);
    expect(paid.json().error).toBe('invalid_state');
    expect(await w.balances()).toMatchObject({ available: '0' });

    const done = await charge({ amount_minor: '1000' }, w);
    await w.api.post(`/v1/sandbox/simulate/payments/${done.id}/pay`);
    const expire = await w.api.post(`/v1/sandbox/simulate/payments/${done.id}/expire`);
    expect(expire.statusCode).toBe(422);
    expect(expire.json().error).toBe('invalid_state');
  });

  it('the simulate routes on a live path → 404', async () => {
    const payment = await charge({ amount_minor: '1000' });
    for (const action of ['pay', 'complete', 'fail', 'expire']) {
      const res = await ws.session.post(`/v1/live/simulate/payments/${payment.id}/${action}`);
      expect(res.statusCode, `${action}: ${res.body}`).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    expect((await ws.api.get(`/v1/sandbox/payments/${payment.id}`)).json().data.status).toBe('created');
  });

  it('pay on a payout → 422 invalid_state', async () => {
    const w = await world.workspace('Pay payout', { settlementKey: true, fund: '5000' });
    const payout = await w.payout('1000');
    const res = await w.api.post(`/v1/sandbox/simulate/payments/${payout.id}/pay`);
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('invalid_state');
    const expire = await w.api.post(`/v1/sandbox/simulate/payments/${payout.id}/expire`);
    expect(expire.statusCode).toBe(422);
  });
});
