import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tx } from '../../src/db/types.ts';
import type { PaymentStatus } from '../../src/modules/payments/schemas.ts';
import {
  createPayment,
  lockPayment,
  PAYMENT_TRANSITIONS,
  type PaymentScope,
  transition,
} from '../../src/modules/payments/service.ts';
import { addParty, type Client, cashIn, startWorld, type World } from '../support/world.ts';

let world: World;
let api: Client;
let workspaceId: string;
let party: string;
let scope: PaymentScope;

beforeAll(async () => {
  world = await startWorld();
  const m = await world.workspace();
  api = m.api;
  workspaceId = m.owner.workspaceId;
  party = m.owner.defaultPartyId;
  scope = { workspaceId, environment: 'sandbox' };
});
afterAll(() => world.close());

const PAYMENT_FIELDS = [
  'id',
  'workspace_id',
  'party_id',
  'environment',
  'kind',
  'status',
  'amount_minor',
  'currency',
  'fee_minor',
  'description',
  'provider_ref',
  'pix_qr_code',
  'pix_tx_id',
  'pix_txid',
  'pix_key',
  'to_address',
  'from_address',
  'network',
  'tx_hash',
  'failure_reason',
  'metadata',
  'idempotency_key',
  'counterparty',
  'wallet_id',
  'source_currency',
  'target_currency',
  'exchange_rate',
  'quote_id',
  'related_payment_id',
  'expires_at',
  'completed_at',
  'failed_at',
  'created_at',
  'updated_at',
];

const events = async (paymentId: string) => {
  const { rows } = await world.db.query<{ type: string; payload: { data: { object: { status: string } } } }>(
    `SELECT type, payload FROM events WHERE payload->'data'->'object'->>'id' = $1 ORDER BY id`,
    [paymentId],
  );
  return rows;
};

const payout = (tx: Tx, extra: Partial<Parameters<typeof createPayment>[1]> = {}) =>
  createPayment(tx, {
    workspace_id: workspaceId,
    environment: 'sandbox',
    party_id: party,
    kind: 'pix_cash_out',
    amount_minor: 2500n,
    currency: 'BRL',
    fee_minor: 100n,
    pix_key: 'someone@example.com',
    metadata: { order: 42 },
    ...extra,
  });

describe('payments service', () => {
  it('creates a payment with every field of the spec and emits payment.created', async () => {
    const view = await world.db.transaction((tx) => payout(tx));
    expect(Object.keys(view).sort()).toEqual([...PAYMENT_FIELDS].sort());
    expect(view).toMatchObject({
      workspace_id: workspaceId,
      party_id: party,
      environment: 'sandbox',
      kind: 'pix_cash_out',
      status: 'created',
      amount_minor: '2500',
      fee_minor: '100',
      currency: 'BRL',
      pix_key: 'someone@example.com',
      metadata: { order: 42 },
      counterparty: null,
      tx_hash: null,
      completed_at: null,
      failed_at: null,
      expires_at: null,
    });
    expect(view.created_at).toBe(view.updated_at);
    const emitted = await events(view.id);
    expect(emitted.map((e) => e.type)).toEqual(['payment.created']);
    expect(emitted[0]!.payload.data.object).toEqual(view);
    const res = await api.get(`/v1/sandbox/payments/${view.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: view });
  });

  it('moves through created → processing → completed, with one event per status', async () => {
    const created = await world.db.transaction((tx) => payout(tx));
    const processing = await world.db.transaction((tx) =>
      transition(tx, scope, created.id, 'processing', { provider_ref: 'prov-1' }),
    );
    expect(processing).toMatchObject({ status: 'processing', provider_ref: 'prov-1', completed_at: null });
    const done = await world.db.transaction((tx) =>
      transition(tx, scope, created.id, 'completed', { pix_tx_id: 'E1234567820260301120000abcdefghijk' }),
    );
    expect(done.status).toBe('completed');
    expect(done.completed_at).not.toBeNull();
    expect(done.provider_ref).toBe('prov-1');
    expect(done.pix_tx_id).toBe('E1234567820260301120000abcdefghijk');
    expect((await events(created.id)).map((e) => e.type)).toEqual([
      'payment.created',
      'payment.processing',
      'payment.completed',
    ]);
  });

  it('sets failed_at and failure_reason on failure', async () => {
    const created = await world.db.transaction((tx) => payout(tx));
    const failed = await world.db.transaction((tx) =>
      transition(tx, scope, created.id, 'failed', { failure_reason: 'sandbox_rejected' }),
    );
    expect(failed).toMatchObject({
      status: 'failed',
      failure_reason: 'sandbox_rejected',
      completed_at: null,
    });
    expect(failed.failed_at).not.toBeNull();
  });

  it('refuses every move outside the transition table with invalid_state, and writes nothing', async () => {
    const statuses = Object.keys(PAYMENT_TRANSITIONS) as PaymentStatus[];
    const paths: Record<PaymentStatus, PaymentStatus[]> = {
      created: [],
      processing: ['processing'],
      completed: ['completed'],
      failed: ['failed'],
      expired: ['expired'],
      refunded: ['completed', 'refunded'],
    };
    for (const from of statuses) {
      for (const to of statuses) {
        if (PAYMENT_TRANSITIONS[from].includes(to)) continue;
        const created = await world.db.transaction((tx) => payout(tx));
        for (const step of paths[from])
          await world.db.transaction((tx) => transition(tx, scope, created.id, step));
        const before = (await events(created.id)).length;
        const error = await world.db
          .transaction((tx) => transition(tx, scope, created.id, to))
          .catch((e: { code?: string }) => e);
        expect((error as { code?: string }).code, `${from} → ${to}`).toBe('invalid_state');
        expect((await events(created.id)).length).toBe(before);
      }
    }
  });

  it('a transition of a payment outside the scope is not_found', async () => {
    const created = await world.db.transaction((tx) => payout(tx));
    const other = await world.db
      .transaction((tx) => transition(tx, { ...scope, environment: 'live' }, created.id, 'completed'))
      .catch((e: { code?: string }) => e);
    expect((other as { code?: string }).code).toBe('not_found');
    const locked = await world.db.transaction((tx) => lockPayment(tx, scope, created.id));
    expect(locked.status).toBe('created');
  });

  it('a payment born completed emits only payment.completed', async () => {
    const payment = await cashIn(api, '100');
    expect((await events(payment.id)).map((e) => e.type)).toEqual(['payment.completed']);
  });
});

describe('GET /v1/{env}/payments', () => {
  let ids: string[];
  let customer: string;
  beforeAll(async () => {
    const m = await world.workspace();
    api = m.api;
    workspaceId = m.owner.workspaceId;
    party = m.owner.defaultPartyId;
    scope = { workspaceId, environment: 'sandbox' };
    customer = await addParty(world.db, workspaceId);
    ids = [];
    ids.push((await cashIn(api, '100')).id);
    ids.push((await world.db.transaction((tx) => payout(tx))).id);
    ids.push((await cashIn(api, '300', customer)).id);
    ids.push((await world.db.transaction((tx) => payout(tx, { kind: 'crypto_send', currency: 'USDT' }))).id);
    ids.push((await cashIn(api, '500')).id);
    ids.reverse();
  });

  const list = async (query = '') => {
    const res = await api.get(`/v1/sandbox/payments${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { id: string; status: string; kind: string; party_id: string }[];
  };

  it('lists newest first', async () => {
    expect((await list()).map((p) => p.id)).toEqual(ids);
  });

  it('pages with limit and cursor, ending with an empty page', async () => {
    const first = await list('?limit=2');
    expect(first.map((p) => p.id)).toEqual(ids.slice(0, 2));
    const second = await list(`?limit=2&cursor=${first[1]!.id}`);
    expect(second.map((p) => p.id)).toEqual(ids.slice(2, 4));
    const third = await list(`?limit=2&cursor=${second[1]!.id}`);
    expect(third.map((p) => p.id)).toEqual(ids.slice(4));
    expect(await list(`?limit=2&cursor=${third[0]!.id}`)).toEqual([]);
  });

  it('filters by status, kind and party_id', async () => {
    expect((await list('?status=completed')).map((p) => p.id)).toEqual([ids[0], ids[2], ids[4]]);
    expect((await list('?status=created&kind=pix_cash_out')).map((p) => p.id)).toEqual([ids[3]]);
    expect((await list('?kind=crypto_send')).map((p) => p.id)).toEqual([ids[1]]);
    expect((await list(`?party_id=${customer}`)).map((p) => p.id)).toEqual([ids[2]]);
    expect(await list('?status=refunded')).toEqual([]);
  });

  it('answers 400 for bad query values', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?status=paid',
      '?kind=wire',
      '?cursor=x',
      '?party_id=1',
    ]) {
      const res = await api.get(`/v1/sandbox/payments${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
  });

  it('an unknown payment id is 404 not_found; a malformed one 400', async () => {
    const unknown = await api.get('/v1/sandbox/payments/01890a5d-ac96-774b-bcce-b302099a8057');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');
    const bad = await api.get('/v1/sandbox/payments/123');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toBe('invalid_request');
  });
});
