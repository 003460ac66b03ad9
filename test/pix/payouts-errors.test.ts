/**
 * Every refusal of POST /v1/{env}/pix/payouts (spec PIX section, API.md Errors and "Order of payout
 * checks"): status, error code, and that nothing happened: no balance moved, no payment, no journal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/platform/ids.ts';
import {
  authHeaders,
  type Client,
  CPF,
  type Env,
  EVP,
  startWorld,
  type Workspace,
} from '../support/world.ts';

const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());
/** Has a settlement key and R$ 100,00. */
const ready = await world.workspace('Ready', { settlementKey: true, fund: '10000' });
/** Has R$ 100,00 but no settlement key. */
const keyless = await world.workspace('Keyless', { fund: '10000' });

const PAYOUT = '/v1/sandbox/pix/payouts';

/** What a user can see of a workspace's money: balances, payouts, journals. */
async function snapshot(ws: Workspace, env: Env = 'sandbox') {
  return {
    balances: await ws.balances(env),
    payouts: await ws.paymentCount('pix_cash_out', env),
    journals: await ws.journalCount(),
  };
}

/** Sends a payout that must be refused with `status` and `code`, and checks nothing moved. */
async function refused(
  ws: Workspace,
  send: () => ReturnType<Workspace['api']['post']>,
  status: number,
  code: string,
  env: Env = 'sandbox',
) {
  const before = await snapshot(ws, env);
  const res = await send();
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toMatchObject({ error: code, message: expect.any(String) });
  expect(await snapshot(ws, env)).toEqual(before);
  return res;
}

describe('body validation (400)', () => {
  it('pix_key missing, empty or blank → 400 pix_key_required', async () => {
    for (const body of [
      { amount_minor: '1000' },
      { amount_minor: '1000', pix_key: '' },
      { amount_minor: '1000', pix_key: '   ' },
    ]) {
      await refused(ready, () => ready.api.post(PAYOUT, body), 400, 'pix_key_required');
      await refused(ready, () => ready.session.post(PAYOUT, body), 400, 'pix_key_required');
    }
  });

  it('amount "0", "abc", 17 digits, negative, decimal, a number, missing → 400 invalid_amount', async () => {
    for (const amount of ['0', 'abc', '12345678901234567', '-100', '10.50', '', 1000, null]) {
      await refused(
        ready,
        () => ready.api.post(PAYOUT, { amount_minor: amount, pix_key: CPF }),
        400,
        'invalid_amount',
      );
    }
  });

  it('currency USDT or XYZ → 400 unsupported_currency', async () => {
    for (const currency of ['USDT', 'XYZ', 'brl']) {
      await refused(
        ready,
        () => ready.api.post(PAYOUT, { amount_minor: '1000', currency, pix_key: CPF }),
        400,
        'unsupported_currency',
      );
    }
  });

  it('an invalid pix_key with a dashboard session → 400 invalid_pix_key', async () => {
    const bad = [
      { pix_key: '52998224724' }, // CPF with a wrong check digit
      { pix_key: '11111111111' }, // repeated digits
      { pix_key: '11222333000180' }, // CNPJ with a wrong check digit
      { pix_key: '+15551234567' }, // not +55
      { pix_key: '+55119876543' }, // 9 digits
      { pix_key: EVP.toUpperCase() }, // EVP must be lower case
      { pix_key: `${'a'.repeat(70)}@acme.com` }, // e-mail > 77
      { pix_key: 'not a key' },
      { pix_key: 'ana@example.com', pix_key_type: 'cpf' }, // type that does not match
    ];
    for (const body of bad) {
      await refused(
        ready,
        () => ready.session.post(PAYOUT, { amount_minor: '1000', ...body }),
        400,
        'invalid_pix_key',
      );
    }
  });

  it('a refused key or currency names its field in details, as a validation error does', async () => {
    const detailsOf = async (body: Record<string, unknown>, code: string) =>
      (
        await refused(ready, () => ready.session.post(PAYOUT, { amount_minor: '1000', ...body }), 400, code)
      ).json().details;
    expect(await detailsOf({ pix_key: ' ' }, 'pix_key_required')).toEqual([
      { field: 'body.pix_key', issue: 'is required' },
    ]);
    expect(await detailsOf({ pix_key: 'not a key' }, 'invalid_pix_key')).toEqual([
      { field: 'body.pix_key', issue: 'is not a valid CPF, CNPJ, e-mail, +55 phone or EVP key' },
    ]);
    expect(await detailsOf({ pix_key: 'ana@example.com', pix_key_type: 'cpf' }, 'invalid_pix_key')).toEqual([
      { field: 'body.pix_key', issue: 'is not a valid cpf key' },
    ]);
    expect(await detailsOf({ pix_key: CPF, currency: 'USDT' }, 'unsupported_currency')).toEqual([
      { field: 'body.currency', issue: 'must be BRL on PIX' },
    ]);
  });

  it('an unknown pix_key_type or a non-uuid party_id → 400 invalid_request', async () => {
    await refused(
      ready,
      () => ready.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF, pix_key_type: 'iban' }),
      400,
      'invalid_request',
    );
    await refused(
      ready,
      () => ready.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF, party_id: 'nope' }),
      400,
      'invalid_request',
    );
  });
});

describe('settlement key (403)', () => {
  it('a workspace without a settlement key → 403 settlement_key_required, with a key or a session', async () => {
    await refused(
      keyless,
      () => keyless.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }),
      403,
      'settlement_key_required',
    );
    await refused(
      keyless,
      () => keyless.session.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }),
      403,
      'settlement_key_required',
    );
  });

  it('a deleted settlement key counts as none', async () => {
    const ws = await world.workspace('Deleted key', { settlementKey: true, fund: '5000' });
    expect((await ws.session.delete('/v1/sandbox/settlement-key')).statusCode).toBe(200);
    await refused(
      ws,
      () => ws.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }),
      403,
      'settlement_key_required',
    );
  });

  it('a sandbox settlement key does not count in live', async () => {
    const ws = await world.workspace('Sandbox key only', { settlementKey: true });
    const live = await ws.liveApi();
    await ws.credit('live', 5000n);
    await world.db.query("UPDATE parties SET kyc_status = 'approved' WHERE id = $1", [
      ws.owner.defaultPartyId,
    ]);
    await refused(
      ws,
      () => live.post('/v1/live/pix/payouts', { amount_minor: '1000', pix_key: CPF }),
      403,
      'settlement_key_required',
      'live',
    );
  });
});

describe('balance (422)', () => {
  it('amount + fee one centavo above available → 422 insufficient_balance; exactly available succeeds', async () => {
    const ws = await world.workspace('Boundary', { settlementKey: true, fund: '1100' });
    // 1001 + fee 100 = 1101 > 1100
    await refused(
      ws,
      () => ws.api.post(PAYOUT, { amount_minor: '1001', pix_key: CPF }),
      422,
      'insufficient_balance',
    );
    // an amount alone below available is not enough: the fee counts
    await refused(
      ws,
      () => ws.api.post(PAYOUT, { amount_minor: '1050', pix_key: CPF }),
      422,
      'insufficient_balance',
    );
    const ok = await ws.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ amount_minor: '1000', fee_minor: '100', status: 'created' });
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '1100' });
    // nothing left: even the smallest payout is refused
    await refused(
      ws,
      () => ws.api.post(PAYOUT, { amount_minor: '1', pix_key: CPF }),
      422,
      'insufficient_balance',
    );
  });

  it('insufficient_balance names body.amount_minor, the amount that would overdraw', async () => {
    const ws = await world.workspace('Short', { settlementKey: true, fund: '100' });
    const res = await refused(
      ws,
      () => ws.session.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }),
      422,
      'insufficient_balance',
    );
    expect(res.json().details).toEqual([
      { field: 'body.amount_minor', issue: 'is more than the available balance can cover, fee included' },
    ]);
  });

  it('a workspace fee schedule counts in the balance check', async () => {
    const ws = await world.workspace('Fee schedule', { settlementKey: true, fund: '10000' });
    await world.db.query(
      `INSERT INTO fee_schedules (workspace_id, environment, rail, fixed_minor, bps) VALUES ($1, 'sandbox', 'pix_payout', 50, 100)`,
      [ws.owner.workspaceId],
    );
    // 9851 + 50 + ceil(98.51) = 9851 + 50 + 99 = 10000: exactly the balance
    await refused(
      ws,
      () => ws.api.post(PAYOUT, { amount_minor: '9852', pix_key: CPF }),
      422,
      'insufficient_balance',
    );
    const ok = await ws.api.post(PAYOUT, { amount_minor: '9851', pix_key: CPF });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.fee_minor).toBe('149');
    expect(await ws.balances()).toMatchObject({ available: '0', locked: '10000' });
  });
});

describe('live: KYC (403) and provider (503)', () => {
  let ws: Workspace;
  let live: Client;
  const LIVE_PAYOUT = '/v1/live/pix/payouts';

  beforeAll(async () => {
    ws = await world.workspace('Live');
    live = await ws.liveApi();
    await ws.setSettlementKey('live');
    await ws.credit('live', 10_000n);
  });

  it('live payout without approved KYC → 403 kyc_not_approved (not_started, pending, rejected)', async () => {
    for (const status of ['not_started', 'pending', 'in_review', 'rejected']) {
      await world.db.query('UPDATE parties SET kyc_status = $2 WHERE id = $1', [
        ws.owner.defaultPartyId,
        status,
      ]);
      await refused(
        ws,
        () => live.post(LIVE_PAYOUT, { amount_minor: '1000', pix_key: CPF }),
        403,
        'kyc_not_approved',
        'live',
      );
      await refused(
        ws,
        () => ws.session.post(LIVE_PAYOUT, { amount_minor: '1000', pix_key: CPF }),
        403,
        'kyc_not_approved',
        'live',
      );
    }
  });

  it('KYC is not asked in sandbox', async () => {
    await world.db.query("UPDATE parties SET kyc_status = 'rejected' WHERE id = $1", [
      ready.owner.defaultPartyId,
    ]);
    const res = await ready.api.post(PAYOUT, { amount_minor: '100', pix_key: CPF });
    expect(res.statusCode, res.body).toBe(200);
    await world.db.query("UPDATE parties SET kyc_status = 'not_started' WHERE id = $1", [
      ready.owner.defaultPartyId,
    ]);
  });

  it('KYC approved and balance, but no live provider → 503 provider_unavailable, nothing moved', async () => {
    await world.db.query("UPDATE parties SET kyc_status = 'approved' WHERE id = $1", [
      ws.owner.defaultPartyId,
    ]);
    await refused(
      ws,
      () => live.post(LIVE_PAYOUT, { amount_minor: '1000', pix_key: CPF }),
      503,
      'provider_unavailable',
      'live',
    );
    expect(await ws.balances('live')).toMatchObject({ available: '10000', locked: '0' });
    // and with an Idempotency-Key nothing is remembered: the same key may be sent again
    const key = { 'idempotency-key': `live-${newId()}` };
    for (let attempt = 0; attempt < 2; attempt++) {
      await refused(
        ws,
        () => live.post(LIVE_PAYOUT, { amount_minor: '1000', pix_key: CPF }, key),
        503,
        'provider_unavailable',
        'live',
      );
    }
  });

  it('balance comes before the provider: approved KYC, too little money → 422', async () => {
    await world.db.query("UPDATE parties SET kyc_status = 'approved' WHERE id = $1", [
      ws.owner.defaultPartyId,
    ]);
    await refused(
      ws,
      () => live.post(LIVE_PAYOUT, { amount_minor: '9901', pix_key: CPF }),
      422,
      'insufficient_balance',
      'live',
    );
  });

  it('KYC comes before the balance: no KYC and too little money → 403 kyc_not_approved', async () => {
    await world.db.query("UPDATE parties SET kyc_status = 'pending' WHERE id = $1", [
      ws.owner.defaultPartyId,
    ]);
    await refused(
      ws,
      () => live.post(LIVE_PAYOUT, { amount_minor: '999999', pix_key: CPF }),
      403,
      'kyc_not_approved',
      'live',
    );
  });

  it('the settlement key comes before KYC', async () => {
    const other = await world.workspace('Live no key');
    const otherLive = await other.liveApi();
    await refused(
      other,
      () => otherLive.post(LIVE_PAYOUT, { amount_minor: '1000', pix_key: CPF }),
      403,
      'settlement_key_required',
      'live',
    );
  });
});

describe('order of checks', () => {
  it('authentication comes first: no credentials with a bad body → 401', async () => {
    const res = await world.app.inject({
      method: 'POST',
      url: PAYOUT,
      headers: { 'x-workspace-id': keyless.owner.workspaceId },
      payload: { amount_minor: '0' },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('missing_credentials');
  });

  it('a body error wins over a missing settlement key', async () => {
    await refused(keyless, () => keyless.api.post(PAYOUT, { amount_minor: '1000' }), 400, 'pix_key_required');
    await refused(
      keyless,
      () => keyless.api.post(PAYOUT, { amount_minor: '0', pix_key: CPF }),
      400,
      'invalid_amount',
    );
    await refused(
      keyless,
      () => keyless.api.post(PAYOUT, { amount_minor: '1000', currency: 'USDT', pix_key: CPF }),
      400,
      'unsupported_currency',
    );
    await refused(
      keyless,
      () => keyless.session.post(PAYOUT, { amount_minor: '1000', pix_key: 'nope' }),
      400,
      'invalid_pix_key',
    );
  });

  it('a missing settlement key wins over the balance', async () => {
    const broke = await world.workspace('Broke, no key');
    await refused(
      broke,
      () => broke.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }),
      403,
      'settlement_key_required',
    );
  });

  it('a body error wins over the balance', async () => {
    const broke = await world.workspace('Broke with key', { settlementKey: true });
    await refused(broke, () => broke.api.post(PAYOUT, { amount_minor: '1000' }), 400, 'pix_key_required');
    await refused(
      broke,
      () => broke.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }),
      422,
      'insufficient_balance',
    );
  });
});

describe('parties', () => {
  it("a party-scoped key paying from another party's money → 403 forbidden; unknown party → 404", async () => {
    const partyId = await ready.addParty('Bia');
    const bia = await ready.keyFor(partyId);
    await refused(
      ready,
      () => bia.post(PAYOUT, { amount_minor: '1000', pix_key: CPF, party_id: ready.owner.defaultPartyId }),
      403,
      'forbidden',
    );
    // its own party has no money
    await refused(
      ready,
      () => bia.post(PAYOUT, { amount_minor: '1000', pix_key: CPF }),
      422,
      'insufficient_balance',
    );
    // a party of no workspace of the caller's
    await refused(
      ready,
      () => ready.api.post(PAYOUT, { amount_minor: '1000', pix_key: CPF, party_id: newId() }),
      404,
      'not_found',
    );
    await refused(
      ready,
      () =>
        ready.api.post(PAYOUT, {
          amount_minor: '1000',
          pix_key: CPF,
          party_id: keyless.owner.defaultPartyId,
        }),
      404,
      'not_found',
    );
  });

  it("another workspace's key cannot pay out of this workspace", async () => {
    const res = await world.app.inject({
      method: 'POST',
      url: PAYOUT,
      headers: authHeaders(keyless.apiKey, ready.owner.workspaceId),
      payload: { amount_minor: '1000', pix_key: CPF },
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().error).toBe('invalid_credentials');
  });
});
