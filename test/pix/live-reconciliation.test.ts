/**
 * Live reconciliation against the fake PSP (test/support/fakes/pix-psp.ts): `lastro reconcile` agrees
 * after clean activity, and names what differs: a PIX the PSP holds and the books lack, a MED
 * devolução not applied, a payout in another state, an amount that differs; GET /pix read across pages.
 */
import { afterAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { reconcileCommand } from '../../src/modules/pix/reconciliation/cli.ts';
import { reconcile } from '../../src/modules/pix/reconciliation/service.ts';
import { CPF } from '../support/world.ts';
import { liveWorkspace, pspIdOf, startLiveWorld } from './live-support.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

const since = new Date(Date.now() - 60_000);
const window = () => ({ from: since, to: new Date(Date.now() + 60_000) });

/** `lastro reconcile --json` in this process: its exit code and what it printed. */
async function cli() {
  const { from, to } = window();
  const args = reconcileCommand.parse(['--from', from.toISOString(), '--to', to.toISOString(), '--json']);
  const log = vi.spyOn(console, 'log').mockImplementation(() => {});
  try {
    const code = await reconcileCommand.run(world.deps, args);
    return { code, report: JSON.parse(String(log.mock.calls[0]![0])) };
  } finally {
    log.mockRestore();
  }
}

async function paidCharge(api: Awaited<ReturnType<typeof liveWorkspace>>['live'], amount: string) {
  const charge = (await api.post('/v1/live/pix/charges', { amount_minor: amount })).json().data;
  const paid = await psp.pay(charge.pix_txid);
  expect(paid.callback).toMatchObject({ status: 200 });
  return { charge, endToEndId: paid.endToEndId };
}

const { ws, live: api } = await liveWorkspace(world, 'Reconciled');
let payoutId = '';

describe('lastro reconcile (live)', () => {
  it('exits 0 after a paid charge and a settled payout', async () => {
    await paidCharge(api, '10000');
    const payout = await api.post('/v1/live/pix/payouts', { amount_minor: '2500', pix_key: CPF });
    expect(payout.statusCode, payout.body).toBe(200);
    payoutId = payout.json().data.id;
    await world.drainJobs();
    await psp.settlePayout(pspIdOf(payoutId), 'REALIZADO');
    const { code, report } = await cli();
    expect(report.findings).toEqual([]);
    expect(code).toBe(0);
    expect(report).toMatchObject({ ok: true, psp_pix_count: 1, transfers_count: 1 });
    const runs = (await api.get('/v1/live/reconciliation/runs')).json().data;
    expect(runs[0]).toMatchObject({ id: report.run_id, status: 'agreed', findings_count: 0 });
  });

  it('exits 1 naming the endToEndId of a PIX the PSP holds and the books lack', async () => {
    const { endToEndId } = await psp.receive({ valor: '12.34', notify: false });
    const { code, report } = await cli();
    expect(code).toBe(1);
    expect(report.findings).toEqual([
      expect.objectContaining({
        kind: 'missing_pix',
        end_to_end_id: endToEndId,
        workspace_id: null,
        found_minor: '1234',
      }),
    ]);
    // Held as a PIX without a charge once its notification arrives: then the books explain it.
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const held = await psp.callback({ pix: [psp.pixView(endToEndId)] });
    expect(held).toMatchObject({ status: 200, body: { data: { received: 1 } } });
    expect((await cli()).code).toBe(0);
  });

  it('finds a MED devolução the books have not applied, for the charge’s workspace only', async () => {
    const { charge, endToEndId } = await paidCharge(api, '5000');
    const { id } = await psp.medReturn(endToEndId, { valor: '20.00', natureza: 'MED_FRAUDE', notify: false });
    const { code, report } = await cli();
    expect(code).toBe(1);
    expect(report.findings).toEqual([
      expect.objectContaining({
        kind: 'return_not_reflected',
        workspace_id: ws.owner.workspaceId,
        end_to_end_id: endToEndId,
        payment_id: charge.id,
        found_minor: '2000',
      }),
    ]);
    expect(report.findings[0].detail).toContain(id);
    const [run] = (await api.get('/v1/live/reconciliation/runs')).json().data;
    expect(run).toMatchObject({ status: 'discrepancies', findings_count: 1 });
    const detail = (await api.get(`/v1/live/reconciliation/runs/${run.id}`)).json().data;
    expect(detail.findings).toEqual([
      expect.objectContaining({ kind: 'return_not_reflected', payment_id: charge.id }),
    ]);
    const other = await liveWorkspace(world, 'Someone else');
    expect((await other.live.get('/v1/live/reconciliation/runs')).json().data).toEqual([]);
    expect((await other.live.get(`/v1/live/reconciliation/runs/${run.id}`)).statusCode).toBe(404);
    expect(await ws.eventTypes(run.id)).toEqual(['reconciliation.completed']);
    psp.refunds.delete(`${endToEndId}/${id}`);
  });

  it('finds a payout the PSP shows in another state, and an amount that differs', async () => {
    psp.payouts.get(pspIdOf(payoutId))!.status = 'NAO_REALIZADO';
    const { endToEndId } = await paidCharge(api, '700');
    const pix = [...psp.cobs.values()].flatMap((cob) => cob.pix).find((p) => p.endToEndId === endToEndId)!;
    pix.valor = '7.01';
    const { code, report } = await cli();
    expect(code).toBe(1);
    expect(report.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          kind: 'status_mismatch',
          payment_id: payoutId,
          expected_status: 'completed',
          found_status: 'failed',
        }),
        expect.objectContaining({
          kind: 'amount_mismatch',
          end_to_end_id: endToEndId,
          expected_minor: '700',
          found_minor: '701',
        }),
      ]),
    );
    expect(report.findings).toHaveLength(2);
    psp.payouts.get(pspIdOf(payoutId))!.status = 'REALIZADO';
    pix.valor = '7.00';
  });

  it('reads GET /pix across its pages', async () => {
    for (let i = 0; i < 4; i++) await paidCharge(api, String(100 + i));
    psp.pageSize = 2;
    const before = psp.calls.filter((c) => c.path === '/v2/pix').length;
    const report = await reconcile(world.deps, { environment: 'live', ...window(), trigger: 'cli' });
    psp.pageSize = 100;
    expect(report.findings).toEqual([]);
    expect(report.pspPix).toBe(8);
    expect(psp.calls.filter((c) => c.path === '/v2/pix').length - before).toBe(4);
  });

  it('a cash-in the PSP does not know is stored for its workspace, even with nothing else in the window', async () => {
    const forged = await liveWorkspace(world, 'Forged credit');
    const { charge, endToEndId } = await paidCharge(forged.live, '4321');
    const cob = psp.cobs.get(charge.pix_txid)!;
    const pix = cob.pix;
    cob.pix = [];
    onTestFinished(() => {
      cob.pix = pix;
    });
    const report = await reconcile(world.deps, { environment: 'live', ...window(), trigger: 'cli' });
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        kind: 'unknown_to_psp',
        endToEndId,
        workspaceId: forged.ws.owner.workspaceId,
      }),
    );
    const run = await forged.live.get(`/v1/live/reconciliation/runs/${report.runId}`);
    expect(run.statusCode, run.body).toBe(200);
    expect(run.json().data.findings).toEqual([
      expect.objectContaining({ kind: 'unknown_to_psp', end_to_end_id: endToEndId }),
    ]);
  });

  it('a PSP that cannot be read stores no run, and the CLI exits 3, not 1', async () => {
    const before = (await api.get('/v1/live/reconciliation/runs')).json().data.length;
    psp.failNext({ path: /^\/v2\/pix$/, status: 503, times: 1 });
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { from, to } = window();
      const args = reconcileCommand.parse(['--from', from.toISOString(), '--to', to.toISOString()]);
      expect(await reconcileCommand.run(world.deps, args)).toBe(3);
    } finally {
      err.mockRestore();
    }
    expect((await api.get('/v1/live/reconciliation/runs')).json().data).toHaveLength(before);
  });
});
