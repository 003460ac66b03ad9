/**
 * The live gate with a KYC status that really moves: a case walked pending → RFI → approved by the
 * operator lets a live payout through the KYC check (it then meets the provider: 503 in live with none
 * configured); a rejected one keeps it at 403 kyc_not_approved. Also the operator's CLI command.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { postJournal } from '../../src/ledger/ledger.ts';
import { parseKycArgs, runKycDecide } from '../../src/modules/parties/cli.ts';
import { AppError } from '../../src/platform/errors.ts';
import { newId } from '../../src/platform/ids.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { client, createApiKey, enableProduction } from '../support/fixtures.ts';
import { type Client, CNPJ, type PartiesWorkspace, partiesWorkspace } from './support.ts';

let ctx: TestContext;
let ws: PartiesWorkspace;
let live: Client;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await partiesWorkspace(ctx);
  await enableProduction(ctx.app, ws.owner);
  live = client(ctx.app, (await createApiKey(ctx.app, ws.owner, 'live')).secret, ws.owner.workspaceId);
  const key = await ws.session.put('/v1/live/settlement-key', {
    pix_key: 'tesouraria@acme.com.br',
    holder_name: 'Acme Pagamentos Ltda',
    holder_document: CNPJ,
  });
  expect(key.statusCode).toBe(200);
});
afterAll(() => ctx.close());

/** A customer holding R$ 100.00 in live (live has no cash-in helper). */
async function fundedCustomer() {
  const customer = await ws.customer();
  await ctx.db.transaction((tx) =>
    postJournal(tx, {
      workspaceId: ws.owner.workspaceId,
      environment: 'live',
      referenceType: 'test',
      referenceId: newId(),
      postings: [
        {
          account: systemAccount.pixSettlement(ws.owner.workspaceId, 'live'),
          direction: 'debit',
          amount: 10_000n,
        },
        {
          account: partyAccount(ws.owner.workspaceId, 'live', customer.id, 'BRL', 'available'),
          direction: 'credit',
          amount: 10_000n,
        },
      ],
    }),
  );
  return customer;
}

const payout = (partyId: string) =>
  live.post('/v1/live/pix/payouts', { amount_minor: '1000', pix_key: '52998224725', party_id: partyId });

async function liveBalance(partyId: string) {
  const res = await live.get(`/v1/live/balances?party_id=${partyId}&currency=BRL`);
  return res.json().data.find((b: { kind: string }) => b.kind === 'available').balance_minor;
}

describe('live KYC gate', () => {
  it('approved by the operator: the payout passes the KYC check and meets the provider (503)', async () => {
    const customer = await fundedCustomer();
    const before = await payout(customer.id);
    expect(before.statusCode).toBe(403);
    expect(before.json().error).toBe('kyc_not_approved');

    const kyc = (await live.post('/v1/live/kyc', { party_id: customer.id })).json().data;
    expect(kyc).toMatchObject({ status: 'pending', environment: 'live' });
    const item = (
      await live.post(`/v1/live/kyc/${kyc.id}/rfi`, { field_name: 'source_of_funds', description: 'Explain' })
    ).json().data;
    expect((await payout(customer.id)).json().error).toBe('kyc_not_approved');
    expect((await live.get(`/v1/live/customers/${customer.id}`)).json().data.kyc_status).toBe('in_review');
    await live.post(`/v1/live/kyc/${kyc.id}/rfi/${item.id}/answer`, { answer: 'Salary' });

    const decided = await runKycDecide(ctx.deps, { caseId: kyc.id, decision: 'approve', reason: 'verified' });
    expect(decided).toMatchObject({ id: kyc.id, status: 'approved', decision_reason: 'verified' });
    expect((await live.get(`/v1/live/customers/${customer.id}`)).json().data.kyc_status).toBe('approved');
    // The sandbox status of the same customer did not move.
    expect((await ws.api.get(`/v1/sandbox/customers/${customer.id}`)).json().data.kyc_status).toBe(
      'not_started',
    );

    const after = await payout(customer.id);
    expect(after.statusCode).toBe(503);
    expect(after.json().error).toBe('provider_unavailable');
    expect(await liveBalance(customer.id)).toBe('10000');

    const audit = await ctx.db.query<{ actor_type: string; action: string }>(
      "SELECT actor_type, action FROM audit_events WHERE target_id = $1 AND action = 'kyc.approved'",
      [kyc.id],
    );
    expect(audit.rows).toEqual([{ actor_type: 'system', action: 'kyc.approved' }]);
  });

  it('rejected by the operator: the payout stays at 403 kyc_not_approved', async () => {
    const customer = await fundedCustomer();
    const kyc = (await live.post('/v1/live/kyc', { party_id: customer.id })).json().data;
    await runKycDecide(ctx.deps, { caseId: kyc.id, decision: 'reject', reason: 'document mismatch' });
    expect((await live.get(`/v1/live/customers/${customer.id}`)).json().data.kyc_status).toBe('rejected');
    const res = await payout(customer.id);
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('kyc_not_approved');
  });

  it('the sandbox helper cannot decide a live case', async () => {
    const customer = await ws.customer();
    const kyc = (await live.post('/v1/live/kyc', { party_id: customer.id })).json().data;
    const res = await ws.api.post(`/v1/sandbox/simulate/kyc/${kyc.id}/approve`);
    expect(res.statusCode).toBe(404);
    expect((await live.get(`/v1/live/kyc/${kyc.id}`)).json().data.status).toBe('pending');
  });

  it('the operator cannot decide an unknown case, nor one already decided', async () => {
    await expect(
      runKycDecide(ctx.deps, { caseId: '01890000-0000-7000-8000-000000000000', decision: 'approve' }),
    ).rejects.toMatchObject({ code: 'not_found' });
    const customer = await ws.customer();
    const kyc = (await live.post('/v1/live/kyc', { party_id: customer.id })).json().data;
    await runKycDecide(ctx.deps, { caseId: kyc.id, decision: 'approve' });
    const again = runKycDecide(ctx.deps, { caseId: kyc.id, decision: 'reject' });
    await expect(again).rejects.toBeInstanceOf(AppError);
    await expect(again).rejects.toMatchObject({ code: 'invalid_state' });
  });
});

describe('lastro kyc decide', () => {
  const id = '01890000-0000-7000-8000-000000000000';
  it('parses its arguments', () => {
    expect(parseKycArgs(['decide', id, 'approve'])).toEqual({ caseId: id, decision: 'approve' });
    expect(parseKycArgs(['decide', id, 'reject', '--reason', 'bad docs'])).toEqual({
      caseId: id,
      decision: 'reject',
      reason: 'bad docs',
    });
    expect(parseKycArgs(['decide', id, 'reject', '--reason=x'])?.reason).toBe('x');
    for (const argv of [
      [],
      ['decide'],
      ['decide', 'nope', 'approve'],
      ['decide', id, 'maybe'],
      ['decide', id, 'approve', '--x'],
    ]) {
      expect(parseKycArgs(argv)).toBeUndefined();
    }
  });

  it('runs from the real CLI: usage errors exit 2, an unknown case exits 1 with not_found', async () => {
    const root = path.resolve(import.meta.dirname, '../..');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'lastro-kyc-'));
    const run = (args: string[]) =>
      new Promise<{ code: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
          cwd: root,
          env: {
            ...process.env,
            DATABASE_URL: '',
            TEST_DATABASE_URL: '',
            DATA_DIR: dataDir,
            LOG_LEVEL: 'error',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        let output = '';
        child.stdout.on('data', (chunk) => (output += chunk));
        child.stderr.on('data', (chunk) => (output += chunk));
        child.on('exit', (code) => resolve({ code, output }));
      });
    try {
      const usage = await run(['kyc', 'decide', id]);
      expect(usage.code).toBe(2);
      expect(usage.output).toContain('lastro kyc decide <case id> approve|reject');
      const unknown = await run(['kyc', 'decide', id, 'approve', '--reason', 'ok']);
      expect(unknown.code, unknown.output).toBe(1);
      expect(unknown.output).toContain('not_found');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, 180_000);
});
