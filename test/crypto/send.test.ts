/**
 * Crypto sends over HTTP: the whitelist rule for API keys, the OTP rule for 2FA dashboard sessions,
 * the sending wallet, the network fee debited with the amount, API.md's error order with balances
 * unchanged on every refusal, Idempotency-Key, and the lifecycle created → processing (tx_hash) →
 * completed | failed on the one outbound flow.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CRYPTO_NETWORK_FEES } from '../../src/modules/crypto/fees.ts';
import { cryptoTransfers } from '../../src/modules/crypto/transfers.ts';
import { createWorkspace } from '../../src/modules/workspace/service.ts';
import { isTxHash } from '../../src/providers/chain/tx-hash.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey } from '../support/fixtures.ts';
import { type CryptoWorkspace, cryptoWorkspace, drainJobs, OUTSIDE, SEND, type Wallet } from './support.ts';

const SETTLE_MS = 1000;
const FEE = CRYPTO_NETWORK_FEES.polygon.toString(); // 50000: 0.05 USDT

let ctx: TestContext;
let ws: CryptoWorkspace;
let polygon: Wallet;

beforeAll(async () => {
  ctx = await startTestApp({ sandboxSettleMs: SETTLE_MS });
  ws = await cryptoWorkspace(ctx);
  polygon = await ws.wallet('polygon');
  await ws.deposit(polygon.id, '100000000'); // 100 USDT
  await ws.whitelist('polygon', OUTSIDE.evm);
});
afterAll(() => ctx.close());

async function settle() {
  await drainJobs(ctx);
  ctx.clock.advance(SETTLE_MS + 100);
  await drainJobs(ctx);
}

const send = (body: Record<string, unknown> = {}, headers?: Record<string, string>, as = ws.api) =>
  as.post(
    SEND,
    { amount_minor: '1000000', to_address: OUTSIDE.evm, network: 'polygon', currency: 'USDT', ...body },
    headers,
  );

const paymentOf = async (id: string) => (await ws.api.get(`/v1/sandbox/payments/${id}`)).json().data;

describe('a send that goes through', () => {
  it('debits amount + network fee at once, broadcasts (tx_hash), completes; custody and fee revenue take it', async () => {
    const before = await ws.coins();
    const res = await send({ amount_minor: '10000000', description: 'Supplier' });
    expect(res.statusCode, res.body).toBe(200);
    const payment = res.json().data;
    expect(payment).toMatchObject({
      kind: 'crypto_send',
      status: 'created',
      amount_minor: '10000000',
      fee_minor: FEE,
      currency: 'USDT',
      network: 'polygon',
      from_address: polygon.address,
      to_address: OUTSIDE.evm,
      wallet_id: polygon.id,
      party_id: ws.owner.defaultPartyId,
      description: 'Supplier',
      tx_hash: null,
    });
    const held = BigInt(before.available!) - 10_000_000n - BigInt(FEE);
    expect(await ws.coins()).toMatchObject({
      available: String(held),
      locked: String(10_000_000n + BigInt(FEE)),
    });

    await drainJobs(ctx);
    const processing = await paymentOf(payment.id);
    expect(processing.status).toBe('processing');
    expect(isTxHash('polygon', processing.tx_hash)).toBe(true);

    ctx.clock.advance(SETTLE_MS + 100);
    await drainJobs(ctx);
    const done = await paymentOf(payment.id);
    expect(done).toMatchObject({ status: 'completed', tx_hash: processing.tx_hash });
    expect(done.completed_at).not.toBeNull();
    expect(await ws.coins()).toMatchObject({ available: String(held), locked: '0' });
    expect(await ws.systemNet('fee_revenue')).toBe(BigInt(FEE));
    expect(await ws.eventTypes(payment.id)).toEqual([
      'payment.created',
      'payment.processing',
      'payment.completed',
    ]);
    // The chain moved exactly the amount, from the wallet to the destination.
    const { rows } = await ctx.db.query<{ amount: string; from_address: string; to_address: string }>(
      'SELECT amount::text, from_address, to_address FROM sandbox_chain_transfers WHERE payment_id = $1',
      [payment.id],
    );
    expect(rows).toEqual([{ amount: '10000000', from_address: polygon.address, to_address: OUTSIDE.evm }]);
    // It shows among the wallet's transactions.
    const txs = (await ws.api.get(`/v1/sandbox/wallets/${polygon.id}/transactions`)).json().data;
    expect(txs[0].id).toBe(payment.id);
  });

  it('an amount ending in 13 is reverted on chain: failed, amount and fee returned in full', async () => {
    const before = await ws.coins();
    const res = await send({ amount_minor: '2000013' });
    expect(res.statusCode, res.body).toBe(200);
    await settle();
    const failed = await paymentOf(res.json().data.id);
    expect(failed).toMatchObject({ status: 'failed', failure_reason: 'transaction_reverted' });
    expect(isTxHash('polygon', failed.tx_hash)).toBe(true);
    expect(await ws.coins()).toEqual(before);
    expect(await ws.eventTypes(failed.id)).toEqual([
      'payment.created',
      'payment.processing',
      'payment.failed',
    ]);
  });

  it('a transfer stuck in processing is completed by the reconciliation sweep', async () => {
    const res = await send();
    const id = res.json().data.id;
    await drainJobs(ctx); // broadcast; the poll job is due later
    await ctx.db.query('UPDATE jobs SET done_at = now() WHERE subject_id = $1 AND done_at IS NULL', [id]);
    ctx.clock.advance(10 * 60_000);
    await cryptoTransfers.reconcile(ctx.deps);
    expect((await paymentOf(id)).status).toBe('completed');
  });

  it('from_address may be named, in any case, when the party has several wallets there', async () => {
    const fresh = await cryptoWorkspace(ctx, 'Duas Carteiras');
    const a = await fresh.wallet('tron');
    const b = await fresh.wallet('tron');
    await fresh.deposit(b.id, '5000000');
    await fresh.whitelist('tron', OUTSIDE.tron);
    const body = { amount_minor: '1000000', network: 'tron', to_address: OUTSIDE.tron, currency: 'USDT' };
    const ambiguous = await fresh.api.post(SEND, body);
    expect(ambiguous.statusCode).toBe(400);
    expect(ambiguous.json().message).toContain(a.address);
    expect(ambiguous.json().message).toContain(b.address);
    const named = await fresh.api.post(SEND, { ...body, from_address: b.address });
    expect(named.statusCode, named.body).toBe(200);
    expect(named.json().data).toMatchObject({
      from_address: b.address,
      wallet_id: b.id,
      fee_minor: '1500000',
    });
  });
});

/** Runs `call` and checks it left no trace: same balances, no new payment. */
async function refused(
  target: CryptoWorkspace,
  call: () => Promise<{
    statusCode: number;
    body: string;
    json(): { error: string; message: string; details?: unknown };
  }>,
  status: number,
  code: string,
) {
  const before = await target.coins();
  const payments = await target.paymentCount('crypto_send');
  const res = await call();
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json().error).toBe(code);
  expect(await target.coins()).toEqual(before);
  expect(await target.paymentCount('crypto_send')).toBe(payments);
  return res.json();
}

const STRANGER = '0x52908400098527886E0F7030069857D2E4169EE7'; // an EIP-55 vector, never whitelisted

describe('who may send where', () => {
  it('an API key to a destination not whitelisted: 403 destination_not_whitelisted, whatever the amount', async () => {
    for (const amount of ['1', '99000000']) {
      const body = await refused(
        ws,
        () => send({ amount_minor: amount, to_address: STRANGER }),
        403,
        'destination_not_whitelisted',
      );
      expect(body.message).toContain(STRANGER);
    }
  });

  it('the whitelist refusal names body.to_address, so a client shows it next to the address', async () => {
    const body = await refused(ws, () => send({ to_address: STRANGER }), 403, 'destination_not_whitelisted');
    expect(body.details).toEqual([{ field: 'body.to_address', issue: 'is not whitelisted on polygon' }]);
  });

  it('an EVM address whitelisted on polygon does not count on base (the same wallet exists there)', async () => {
    await refused(ws, () => send({ network: 'base' }), 403, 'destination_not_whitelisted');
  });

  it('a dashboard session without 2FA is not bound by the whitelist and is not asked for an OTP', async () => {
    const res = await send({ to_address: STRANGER }, {}, ws.session);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.to_address).toBe(STRANGER);
  });

  it('a removed whitelist entry no longer lets a key send there', async () => {
    const entry = await ws.whitelist('polygon', '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359');
    expect((await send({ to_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' })).statusCode).toBe(200);
    await ws.session.delete(`/v1/sandbox/whitelist/${entry.id}`);
    await refused(
      ws,
      () => send({ to_address: '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359' }),
      403,
      'destination_not_whitelisted',
    );
  });
});

describe('a 2FA dashboard session must carry X-OTP-Code', () => {
  let tfa: CryptoWorkspace;
  let code: () => string;
  beforeAll(async () => {
    tfa = await cryptoWorkspace(ctx, 'Dois Fatores');
    const wallet = await tfa.wallet('polygon');
    await tfa.deposit(wallet.id, '10000000');
    await tfa.whitelist('polygon', OUTSIDE.evm);
    code = await tfa.enableTwoFactor();
  });
  const body = { amount_minor: '1000000', to_address: STRANGER, network: 'polygon', currency: 'USDT' };

  it('without it: 401 otp_required; wrong, malformed or expired: 401 otp_invalid; nothing moves', async () => {
    await refused(tfa, () => tfa.session.post(SEND, body), 401, 'otp_required');
    const wrong = String((Number(code()) + 1) % 1_000_000).padStart(6, '0');
    for (const otp of [wrong, 'abc', '1234567', ''])
      await refused(
        tfa,
        () => tfa.session.post(SEND, body, { 'x-otp-code': otp }),
        401,
        otp ? 'otp_invalid' : 'otp_required',
      );
    const stale = code();
    ctx.clock.advance(5 * 60_000);
    await refused(tfa, () => tfa.session.post(SEND, body, { 'x-otp-code': stale }), 401, 'otp_invalid');
  });

  it('a refusal of the code names the header it travels in, headers.x-otp-code', async () => {
    const missing = await refused(tfa, () => tfa.session.post(SEND, body), 401, 'otp_required');
    expect(missing.details).toEqual([
      { field: 'headers.x-otp-code', issue: 'is required: two-factor authentication is on' },
    ]);
    const wrong = String((Number(code()) + 1) % 1_000_000).padStart(6, '0');
    const refusal = await refused(
      tfa,
      () => tfa.session.post(SEND, body, { 'x-otp-code': wrong }),
      401,
      'otp_invalid',
    );
    expect(refusal.details).toEqual([{ field: 'headers.x-otp-code', issue: 'is wrong or has expired' }]);
  });

  it('the OTP is asked before the body is looked at', async () => {
    await refused(tfa, () => tfa.session.post(SEND, { network: 'polygon' }), 401, 'otp_required');
  });

  it('with a valid code it sends, to a destination outside the whitelist', async () => {
    const res = await tfa.session.post(SEND, body, { 'x-otp-code': code() });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ status: 'created', to_address: STRANGER });
  });

  it('an API key of that workspace is never asked for an OTP, and a code it sends changes nothing', async () => {
    const ok = await tfa.api.post(SEND, { ...body, to_address: OUTSIDE.evm });
    expect(ok.statusCode, ok.body).toBe(200);
    const garbage = await tfa.api.post(SEND, { ...body, to_address: OUTSIDE.evm }, { 'x-otp-code': 'nope' });
    expect(garbage.statusCode, garbage.body).toBe(200);
    // …and it stays bound by the whitelist.
    await refused(
      tfa,
      () => tfa.api.post(SEND, body, { 'x-otp-code': code() }),
      403,
      'destination_not_whitelisted',
    );
  });
});

describe('refusals, in API.md order, leave balances untouched', () => {
  it.each([
    ['amount 0', { amount_minor: '0' }, 400, 'invalid_amount'],
    ['a decimal amount', { amount_minor: '1.5' }, 400, 'invalid_amount'],
    ['an amount as a number', { amount_minor: 1000 }, 400, 'invalid_amount'],
    ['17 digits', { amount_minor: '12345678901234567' }, 400, 'invalid_amount'],
    ['an unknown network', { network: 'dogecoin' }, 400, 'unsupported_network'],
    ['BRL', { currency: 'BRL' }, 400, 'unsupported_currency'],
    ['an unknown currency', { currency: 'DAI' }, 400, 'unsupported_currency'],
    ['a Tron address on polygon', { to_address: OUTSIDE.tron }, 400, 'invalid_address'],
    ['a Solana address on polygon', { to_address: OUTSIDE.solana }, 400, 'invalid_address'],
    ['a broken checksum', { to_address: OUTSIDE.evm.replace('a', 'A') }, 400, 'invalid_address'],
    ['no to_address', { to_address: undefined }, 400, 'invalid_request'],
    ['a malformed from_address', { from_address: 'T123' }, 400, 'invalid_address'],
    ['a from_address not the party’s', { from_address: STRANGER }, 400, 'invalid_request'],
    ['no wallet on the network', { network: 'solana', to_address: OUTSIDE.solana }, 400, 'invalid_request'],
    ['an unknown party', { party_id: '01890000-0000-7000-8000-000000000000' }, 404, 'not_found'],
    ['more than the balance (amount + fee)', { amount_minor: '99000000' }, 422, 'insufficient_balance'],
    // Order: an invalid address is 400 before the whitelist; the whitelist (403) before the balance (422).
    ['an invalid address not whitelisted', { to_address: OUTSIDE.tron.slice(0, -1) }, 400, 'invalid_address'],
    [
      'not whitelisted and too much',
      { to_address: STRANGER, amount_minor: '999999999999' },
      403,
      'destination_not_whitelisted',
    ],
  ])('%s → %i %s', async (_name, override, status, code) => {
    const message = (await refused(ws, () => send(override), status, code)).message;
    if (code === 'invalid_address' && _name.includes('Tron')) expect(message).toMatch(/Tron.*polygon/);
    if (_name === 'no wallet on the network') expect(message).toContain('solana');
  });

  it('the exact available balance cannot cover amount + fee: 422; amount = available − fee passes', async () => {
    const fresh = await cryptoWorkspace(ctx, 'Saldo Exato');
    const wallet = await fresh.wallet('polygon');
    await fresh.deposit(wallet.id, '1000000');
    await fresh.whitelist('polygon', OUTSIDE.evm);
    const body = { to_address: OUTSIDE.evm, network: 'polygon', currency: 'USDT' };
    const short = await refused(
      fresh,
      () => fresh.api.post(SEND, { ...body, amount_minor: '1000000' }),
      422,
      'insufficient_balance',
    );
    expect(short.details).toEqual([
      { field: 'body.amount_minor', issue: 'is more than the available balance can cover, fee included' },
    ]);
    const ok = await fresh.api.post(SEND, { ...body, amount_minor: String(1_000_000n - BigInt(FEE)) });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await fresh.coins()).toMatchObject({ available: '0', locked: '1000000' });
  });

  it('a watch-only wallet cannot send: 422 invalid_state naming it', async () => {
    const fresh = await cryptoWorkspace(ctx, 'So Observa');
    const watched = await fresh.wallet('tron', { address: OUTSIDE.tron });
    const body = { amount_minor: '1', to_address: OUTSIDE.tron, network: 'tron', currency: 'USDT' };
    const res = await refused(fresh, () => fresh.session.post(SEND, body), 422, 'invalid_state');
    expect(res.message).toContain(watched.address);
    expect(res.message).toMatch(/watch-only/);
  });

  it('live: the balance is checked first (422), then the missing chain provider answers 503, nothing moves', async () => {
    const fresh = await cryptoWorkspace(ctx, 'Ao Vivo');
    const wallet = (await fresh.session.post('/v1/live/wallets', { network: 'polygon' })).json().data;
    const body = { amount_minor: '1000000', to_address: OUTSIDE.evm, network: 'polygon', currency: 'USDT' };
    const live = (b = body) => fresh.session.post('/v1/live/crypto/send', b);
    expect((await live()).json().error).toBe('insufficient_balance');
    const { postJournal } = await import('../../src/ledger/ledger.ts');
    const { partyAccount, systemAccount } = await import('../../src/ledger/accounts.ts');
    await ctx.db.transaction((tx) =>
      postJournal(tx, {
        workspaceId: fresh.owner.workspaceId,
        environment: 'live',
        referenceType: 'test',
        referenceId: wallet.id,
        postings: [
          {
            account: systemAccount.cryptoCustody(fresh.owner.workspaceId, 'live', 'polygon', 'USDT'),
            direction: 'debit',
            amount: 5_000_000n,
          },
          {
            account: partyAccount(fresh.owner.workspaceId, 'live', fresh.owner.defaultPartyId, 'USDT'),
            direction: 'credit',
            amount: 5_000_000n,
          },
        ],
      }),
    );
    const before = await fresh.coins('USDT', 'live');
    const res = await live();
    expect(res.statusCode, res.body).toBe(503);
    expect(res.json().error).toBe('provider_unavailable');
    expect(await fresh.coins('USDT', 'live')).toEqual(before);
    expect(await fresh.paymentCount('crypto_send', 'live')).toBe(0);
  });
});

describe('Idempotency-Key', () => {
  it('the same key and body replays the payment; one debit; another body under it is 409, nothing moves', async () => {
    const headers = { 'idempotency-key': 'send-once' };
    const before = await ws.coins();
    const first = await send({ amount_minor: '3000000' }, headers);
    const again = await send({ amount_minor: '3000000' }, headers);
    expect(again.headers['idempotency-replayed']).toBe('true');
    expect(again.json().data).toEqual(first.json().data);
    expect(first.json().data.idempotency_key).toBe('send-once');
    const debited = BigInt(before.available!) - 3_000_000n - BigInt(FEE);
    expect((await ws.coins()).available).toBe(String(debited));
    await refused(ws, () => send({ amount_minor: '3000001' }, headers), 409, 'idempotency_key_reuse');
  });
});

describe('parties and sub-accounts', () => {
  it('a party-scoped key sends from its party’s wallet and balance only; naming another party is 403', async () => {
    const { rows } = await ctx.db.query<{ id: string }>(
      `INSERT INTO parties (id, workspace_id, kind, display_name) VALUES (gen_random_uuid(), $1, 'person', 'Cliente') RETURNING id`,
      [ws.owner.workspaceId],
    );
    const partyId = rows[0]!.id;
    const partyApi = client(
      ctx.app,
      (await createApiKey(ctx.app, ws.owner, 'sandbox', { party_id: partyId })).secret,
      ws.owner.workspaceId,
    );
    const wallet = await ws.wallet('polygon', {}, partyApi);
    await ws.deposit(wallet.id, '2000000');
    const entity = await ws.coins();
    const res = await send({ amount_minor: '1000000' }, {}, partyApi);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ party_id: partyId, from_address: wallet.address });
    expect(await ws.coins('USDT', 'sandbox', partyId)).toMatchObject({
      available: '950000',
      locked: '1050000',
    });
    expect(await ws.coins()).toEqual(entity);
    await refused(ws, () => send({ party_id: ws.owner.defaultPartyId }, {}, partyApi), 403, 'forbidden');
    // Its party has no other wallet: naming the entity's wallet is not its own.
    await refused(ws, () => send({ from_address: polygon.address }, {}, partyApi), 400, 'invalid_request');
  });

  it('a parent key acting on its sub-account sends from the child’s wallet and books, under the parent’s whitelist', async () => {
    const child = await ctx.db.transaction((tx) =>
      createWorkspace(tx, { displayName: 'Filial', parentWorkspaceId: ws.owner.workspaceId }),
    );
    const acting = { 'x-subaccount-id': child.id };
    const wallet = (await ws.api.post('/v1/sandbox/wallets', { network: 'polygon' }, acting)).json().data;
    const dep = await ws.api.post(
      '/v1/sandbox/simulate/crypto/deposit',
      { wallet_id: wallet.id, currency: 'USDT', amount_minor: '4000000' },
      acting,
    );
    expect(dep.statusCode, dep.body).toBe(200);
    expect(dep.json().data.workspace_id).toBe(child.id);
    const parentBefore = await ws.coins();
    const res = await send({ amount_minor: '1000000' }, acting);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      workspace_id: child.id,
      party_id: child.default_party_id,
      wallet_id: wallet.id,
    });
    const childBalances = await ws.api.get(`/v1/sandbox/balances?currency=USDT`, acting);
    const byKind = Object.fromEntries(
      (childBalances.json().data as { kind: string; balance_minor: string }[]).map((b) => [
        b.kind,
        b.balance_minor,
      ]),
    );
    expect(byKind).toMatchObject({ available: '2950000', locked: '1050000' });
    expect(await ws.coins()).toEqual(parentBefore);
    // The parent's whitelist binds it: a stranger is refused for the child too.
    const stranger = await ws.api.post(
      SEND,
      { amount_minor: '1', to_address: STRANGER, network: 'polygon', currency: 'USDT' },
      acting,
    );
    expect(stranger.statusCode).toBe(403);
    await settle();
    // Custody and fee revenue of the child, never the parent's rows.
    const { rows } = await ctx.db.query<{ workspace_id: string }>(
      `SELECT DISTINCT a.workspace_id FROM ledger_postings p JOIN ledger_accounts a ON a.id = p.account_id
        JOIN ledger_journals j ON j.id = p.journal_id WHERE j.reference_id = $1`,
      [res.json().data.id],
    );
    expect(rows).toEqual([{ workspace_id: child.id }]);
  });
});

describe('the OpenAPI document', () => {
  it('documents X-OTP-Code beside Idempotency-Key and X-Subaccount-Id on crypto send', async () => {
    const document = (await ctx.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const parameters = document.paths['/v1/{env}/crypto/send'].post.parameters as {
      in: string;
      name: string;
    }[];
    const headers = parameters.filter((p) => p.in === 'header').map((p) => p.name.toLowerCase());
    expect(headers).toEqual(expect.arrayContaining(['x-otp-code', 'idempotency-key', 'x-subaccount-id']));
  });
});
