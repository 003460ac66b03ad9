/**
 * The PSP's notification of a PIX that paid a Pix Automático cycle's cobr names the cobr's txid: it is
 * the cycle's money, credited once by the cycle task, never also held as a PIX without a charge.
 */
import { afterAll, describe, expect, it } from 'vitest';
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

describe('a notification of a paid cycle’s PIX', () => {
  it('is left to the cycle, which is credited once: nothing is held', async () => {
    const { ws, live: api } = await liveWorkspace(world, 'Notifica Ltda');
    world.deps.config.pix.bcb!.unassignedWorkspaceId = ws.owner.workspaceId;
    const start = addDays(dayOf(world.clock.now()), 10);
    await api.post('/v1/live/subscriptions', monthly(start));
    const rec = [...psp.automatic.recs.values()].find((r) => r.status === 'CRIADA')!;
    psp.automatic.answer(rec.idRec, 'APROVADA');
    await run();
    world.clock.advance(5 * DAY_MS);
    await run();
    const [cobr] = [...psp.automatic.cobrs.values()];
    world.clock.advance(5 * DAY_MS);
    const e2e = fakeEndToEndId();
    psp.automatic.settle(cobr!.txid, 'CONCLUIDA', e2e);
    const notified = await psp.callback({ pix: [psp.pixView(e2e)!] });
    expect(notified.status).toBe(200);
    await run();
    expect(await available(api, 'live')).toBe('3500');
    expect((await api.get('/v1/live/pix/unassigned')).json().data).toEqual([]);
  });
});
