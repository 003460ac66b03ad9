/**
 * Live reconciliation sets the PSP's received PIX beside the books: a paid Pix Automático cycle's PIX
 * (its cobr's txid and end-to-end id) is the cycle's payment, not a credit the books do not name.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { reconcile } from '../../src/modules/pix/reconciliation/service.ts';
import { runSubscriptionCycles } from '../../src/modules/subscriptions/index.ts';
import { addDays, dayOf } from '../../src/modules/subscriptions/schedule.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { fakeEndToEndId } from '../support/fakes/pix-psp.ts';
import { available, monthly } from './support.ts';

const live = await startLiveWorld();
afterAll(() => live.close());
const { world, psp } = live;
psp.automatic.today = () => dayOf(world.clock.now());
const DAY_MS = 86_400_000;
const run = () => runSubscriptionCycles(world.deps, { environment: 'live' });

describe('live reconciliation of Pix Automático', () => {
  it('matches a paid cycle’s PIX with the cycle’s payment: no finding', async () => {
    const { live: api } = await liveWorkspace(world, 'Reconcilia Ltda');
    const start = addDays(dayOf(world.clock.now()), 10);
    const created = await api.post('/v1/live/subscriptions', monthly(start));
    expect(created.statusCode, created.body).toBe(200);
    const rec = [...psp.automatic.recs.values()].find((r) => r.status === 'CRIADA')!;
    psp.automatic.answer(rec.idRec, 'APROVADA');
    await run();
    world.clock.advance(5 * DAY_MS);
    await run();
    const [cobr] = [...psp.automatic.cobrs.values()];
    world.clock.advance(5 * DAY_MS);
    const e2e = fakeEndToEndId();
    psp.automatic.settle(cobr!.txid, 'CONCLUIDA', e2e);
    await run();
    expect(await available(api, 'live')).toBe('3500');

    const report = await reconcile(world.deps, {
      environment: 'live',
      from: new Date(Date.now() - DAY_MS),
      to: new Date(world.clock.now().getTime() + DAY_MS),
      trigger: 'cli',
    });
    // The whole environment, as the daily run and the CLI see it: a PIX nobody names has no workspace.
    expect(report).toMatchObject({ pspPix: 1, findings: [], ok: true });
    const stored = await api.get(`/v1/live/reconciliation/runs/${report.runId}`);
    expect(stored.json().data).toMatchObject({ status: 'agreed', psp_pix_count: 1, findings_count: 0 });
  });
});
