import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type Client, eventTypesOf, type PartiesWorkspace, partiesWorkspace } from './support.ts';

let ctx: TestContext;
let ws: PartiesWorkspace;
let other: PartiesWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await partiesWorkspace(ctx);
  other = await partiesWorkspace(ctx, 'Other Tenant');
});
afterAll(() => ctx.close());

const UNKNOWN = '01890000-0000-7000-8000-000000000000';

async function openCase(api: Client, partyId?: string, env = 'sandbox') {
  const res = await api.post(`/v1/${env}/kyc`, partyId === undefined ? {} : { party_id: partyId });
  if (res.statusCode !== 200) throw new Error(`kyc: ${res.statusCode} ${res.body}`);
  return res.json().data as { id: string; status: string; party_id: string };
}

async function kycStatusOf(partyId: string) {
  const { rows } = await ctx.db.query<{ kyc_status: string; sandbox_kyc_status: string }>(
    'SELECT kyc_status, sandbox_kyc_status FROM parties WHERE id = $1',
    [partyId],
  );
  return rows[0]!;
}

describe('a KYC case from pending through RFIs to a decision (sandbox)', () => {
  it('walks pending → in_review → pending → approved, the party following each step', async () => {
    const customer = await ws.customer();
    const kyc = await openCase(ws.api, customer.id);
    expect(kyc).toMatchObject({ status: 'pending', party_id: customer.id, environment: 'sandbox' });
    expect(await kycStatusOf(customer.id)).toEqual({
      kyc_status: 'not_started',
      sandbox_kyc_status: 'pending',
    });
    expect((await ws.api.get(`/v1/sandbox/customers/${customer.id}`)).json().data.kyc_status).toBe('pending');

    const rfi = await ws.api.post(`/v1/sandbox/kyc/${kyc.id}/rfi`, {
      field_name: 'proof_of_address',
      description: 'A utility bill from the last 90 days',
    });
    expect(rfi.statusCode).toBe(200);
    const item = rfi.json().data;
    expect(item).toMatchObject({
      kyc_case_id: kyc.id,
      field_name: 'proof_of_address',
      description: 'A utility bill from the last 90 days',
      status: 'open',
    });
    for (const field of ['id', 'kyc_case_id', 'field_name', 'description', 'status', 'created_at']) {
      expect(item).toHaveProperty(field);
    }
    expect((await ws.api.get(`/v1/sandbox/kyc/${kyc.id}`)).json().data.status).toBe('in_review');
    expect((await kycStatusOf(customer.id)).sandbox_kyc_status).toBe('in_review');

    // Approval waits for every answer.
    const early = await ws.api.post(`/v1/sandbox/simulate/kyc/${kyc.id}/approve`);
    expect(early.statusCode).toBe(422);
    expect(early.json().error).toBe('invalid_state');

    const answered = await ws.api.post(`/v1/sandbox/kyc/${kyc.id}/rfi/${item.id}/answer`, {
      answer: 'Attached: conta de luz, Rua A 1',
    });
    expect(answered.statusCode).toBe(200);
    expect(answered.json().data).toMatchObject({ id: item.id, status: 'answered' });
    expect(answered.json().data.answered_at).not.toBeNull();
    expect((await ws.api.get(`/v1/sandbox/kyc/${kyc.id}`)).json().data.status).toBe('pending');
    const stored = await ctx.db.query<{ row: string }>(
      'SELECT r::text AS row FROM kyc_rfi_items r WHERE id = $1',
      [item.id],
    );
    expect(stored.rows[0]!.row).not.toContain('conta de luz');

    const again = await ws.api.post(`/v1/sandbox/kyc/${kyc.id}/rfi/${item.id}/answer`, { answer: 'again' });
    expect(again.statusCode).toBe(422);
    expect(again.json().error).toBe('invalid_state');

    const approved = await ws.api.post(`/v1/sandbox/simulate/kyc/${kyc.id}/approve`, {
      reason: 'documents ok',
    });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().data).toMatchObject({ status: 'approved', decision_reason: 'documents ok' });
    expect(approved.json().data.decided_at).not.toBeNull();
    // Sandbox approval never reaches live money.
    expect(await kycStatusOf(customer.id)).toEqual({
      kyc_status: 'not_started',
      sandbox_kyc_status: 'approved',
    });
    expect((await ws.api.get(`/v1/sandbox/customers/${customer.id}`)).json().data.kyc_status).toBe(
      'approved',
    );
    expect((await ws.api.get(`/v1/live/customers/${customer.id}`, {})).statusCode).toBe(403); // sandbox key
    const rfis = await ws.api.get(`/v1/sandbox/kyc/${kyc.id}/rfi`);
    expect(rfis.json().data.map((r: { status: string }) => r.status)).toEqual(['closed']);

    const twice = await ws.api.post(`/v1/sandbox/simulate/kyc/${kyc.id}/reject`);
    expect(twice.statusCode).toBe(422);
    expect(twice.json().error).toBe('invalid_state');

    const events = (await eventTypesOf(ctx, ws.owner.workspaceId)).filter((e) =>
      [kyc.id, item.id].includes(e.object_id),
    );
    expect(events.map((e) => e.type)).toEqual([
      'kyc.updated', // pending
      'kyc.updated', // in_review
      'kyc.rfi.created',
      'kyc.updated', // pending again
      'kyc.updated', // approved
    ]);
  });

  it('rejects with open RFIs and closes them; the party may then open a new case', async () => {
    const customer = await ws.customer();
    const kyc = await openCase(ws.api, customer.id);
    await ws.api.post(`/v1/sandbox/kyc/${kyc.id}/rfi`, { field_name: 'id', description: 'ID card' });
    const rejected = await ws.api.post(`/v1/sandbox/simulate/kyc/${kyc.id}/reject`, { reason: 'no answer' });
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().data.status).toBe('rejected');
    expect((await kycStatusOf(customer.id)).sandbox_kyc_status).toBe('rejected');
    const rfis = await ws.api.get(`/v1/sandbox/kyc/${kyc.id}/rfi`);
    expect(rfis.json().data.map((r: { status: string }) => r.status)).toEqual(['closed']);
    const closed = await ws.api.post(`/v1/sandbox/kyc/${kyc.id}/rfi`, { field_name: 'x', description: 'y' });
    expect(closed.statusCode).toBe(422);
    expect((await openCase(ws.api, customer.id)).status).toBe('pending');
  });

  it('409 conflict while the party has a case under way; a case in live is another matter', async () => {
    const customer = await ws.customer();
    await openCase(ws.api, customer.id);
    const res = await ws.api.post('/v1/sandbox/kyc', { party_id: customer.id });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('conflict');
  });

  it("opens a case for the workspace's own entity party when party_id is left out", async () => {
    const fresh = await partiesWorkspace(ctx, 'Entity KYC');
    const kyc = await openCase(fresh.api);
    expect(kyc.party_id).toBe(fresh.owner.defaultPartyId);
  });
});

describe('reading cases and RFIs', () => {
  it('lists cases newest first, narrowed by party_id, with limit bounds', async () => {
    const a = await ws.customer();
    const b = await ws.customer();
    const caseA = await openCase(ws.api, a.id);
    const caseB = await openCase(ws.api, b.id);
    const all = (await ws.api.get('/v1/sandbox/kyc?limit=2')).json().data.map((c: { id: string }) => c.id);
    expect(all).toEqual([caseB.id, caseA.id]);
    const onlyA = await ws.api.get(`/v1/sandbox/kyc?party_id=${a.id}`);
    expect(onlyA.json().data.map((c: { id: string }) => c.id)).toEqual([caseA.id]);
    expect((await ws.api.get('/v1/sandbox/kyc?limit=0')).statusCode).toBe(400);
    expect((await ws.api.get('/v1/sandbox/kyc?limit=101')).statusCode).toBe(400);
    const unknown = await ws.api.get(`/v1/sandbox/kyc?party_id=${UNKNOWN}`);
    expect(unknown.statusCode).toBe(404);
  });

  it('a case belongs to its environment: a sandbox case is not found on the live path', async () => {
    const live = await partiesWorkspace(ctx, 'Live Tenant');
    const kyc = await openCase(live.session, live.owner.defaultPartyId);
    const res = await live.session.get(`/v1/live/kyc/${kyc.id}`);
    expect(res.statusCode).toBe(404);
  });

  it('400 for an RFI without field_name or description', async () => {
    const kyc = await openCase(ws.api, (await ws.customer()).id);
    for (const body of [{ field_name: 'x' }, { description: 'y' }, { field_name: '', description: 'y' }]) {
      const res = await ws.api.post(`/v1/sandbox/kyc/${kyc.id}/rfi`, body);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
    const empty = await ws.api.post(`/v1/sandbox/kyc/${kyc.id}/rfi/${UNKNOWN}/answer`, { answer: '' });
    expect(empty.statusCode).toBe(400);
    const unknownItem = await ws.api.post(`/v1/sandbox/kyc/${kyc.id}/rfi/${UNKNOWN}/answer`, { answer: 'a' });
    expect(unknownItem.statusCode).toBe(404);
  });
});

describe('tenancy', () => {
  it("another workspace's case is not found on any KYC route", async () => {
    const theirs = await openCase(other.api, (await other.customer()).id);
    const item = (
      await other.api.post(`/v1/sandbox/kyc/${theirs.id}/rfi`, { field_name: 'a', description: 'b' })
    ).json().data;
    const calls = [
      ws.api.get(`/v1/sandbox/kyc/${theirs.id}`),
      ws.api.get(`/v1/sandbox/kyc/${theirs.id}/rfi`),
      ws.api.post(`/v1/sandbox/kyc/${theirs.id}/rfi`, { field_name: 'a', description: 'b' }),
      ws.api.post(`/v1/sandbox/kyc/${theirs.id}/rfi/${item.id}/answer`, { answer: 'x' }),
      ws.api.post(`/v1/sandbox/simulate/kyc/${theirs.id}/approve`),
      ws.api.post('/v1/sandbox/kyc', { party_id: other.owner.defaultPartyId }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toBe('not_found');
    }
    const list = await ws.api.get('/v1/sandbox/kyc');
    expect(list.json().data.map((c: { id: string }) => c.id)).not.toContain(theirs.id);
  });
});

describe('a party-scoped key', () => {
  it('opens and reads its own case, answers its RFIs, and sees nothing of other parties', async () => {
    const mine = await ws.customer();
    const theirs = await ws.customer();
    const theirCase = await openCase(ws.api, theirs.id);
    const scoped = await ws.partyClient(mine.id);

    const own = await openCase(scoped);
    expect(own.party_id).toBe(mine.id);
    expect((await scoped.get(`/v1/sandbox/kyc/${own.id}`)).statusCode).toBe(200);
    const listed = (await scoped.get('/v1/sandbox/kyc'))
      .json()
      .data.map((c: { party_id: string }) => c.party_id);
    expect(new Set(listed)).toEqual(new Set([mine.id]));

    const forbidden = [
      await scoped.post('/v1/sandbox/kyc', { party_id: theirs.id }),
      await scoped.get(`/v1/sandbox/kyc?party_id=${theirs.id}`),
      await scoped.post(`/v1/sandbox/kyc/${own.id}/rfi`, { field_name: 'a', description: 'b' }),
      await scoped.post(`/v1/sandbox/simulate/kyc/${own.id}/approve`),
    ];
    for (const res of forbidden) {
      expect(res.statusCode).toBe(403);
      expect(res.json().error).toBe('forbidden');
    }
    for (const res of [
      await scoped.get(`/v1/sandbox/kyc/${theirCase.id}`),
      await scoped.get(`/v1/sandbox/kyc/${theirCase.id}/rfi`),
    ]) {
      expect(res.statusCode).toBe(404);
    }

    const item = (
      await ws.api.post(`/v1/sandbox/kyc/${own.id}/rfi`, { field_name: 'income', description: 'Payslip' })
    ).json().data;
    const answer = await scoped.post(`/v1/sandbox/kyc/${own.id}/rfi/${item.id}/answer`, {
      answer: 'R$ 5.000',
    });
    expect(answer.statusCode).toBe(200);
    const theirItem = (
      await ws.api.post(`/v1/sandbox/kyc/${theirCase.id}/rfi`, {
        field_name: 'income',
        description: 'Payslip',
      })
    ).json().data;
    const sneaky = await scoped.post(`/v1/sandbox/kyc/${theirCase.id}/rfi/${theirItem.id}/answer`, {
      answer: 'x',
    });
    expect(sneaky.statusCode).toBe(404);
  });
});

describe('the sandbox helpers', () => {
  it('do not exist on the live path', async () => {
    const res = await ws.session.post(`/v1/live/simulate/kyc/${UNKNOWN}/approve`);
    expect(res.statusCode).toBe(404);
  });
});
