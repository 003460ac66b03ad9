/**
 * The API Pix requires a cycle's charge (PUT /cobr/{txid}, CobRSolicitada) to name `recebedor`, the
 * receiver's account (conta, tipoConta, agencia): a PSP refuses one without it, so without it no live
 * cycle would ever be charged. The account comes from PIX_RECEIVER_*; the fake PSP refuses as the
 * spec says.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { runSubscriptionCycles } from '../../src/modules/subscriptions/index.ts';
import { addDays, dayOf } from '../../src/modules/subscriptions/schedule.ts';
import { BcbPixProvider } from '../../src/providers/pix/bcb/provider.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { startWorld } from '../support/world.ts';
import { monthly } from './support.ts';

const live = await startLiveWorld();
afterAll(() => live.close());
const { world, psp } = live;
psp.automatic.today = () => dayOf(world.clock.now());
const DAY_MS = 86_400_000;
const run = () => runSubscriptionCycles(world.deps, { environment: 'live' });

describe('a live cycle’s charge', () => {
  it('names the receiver’s account, and the PSP takes it', async () => {
    const { live: api } = await liveWorkspace(world, 'Recebedor Ltda');
    const start = addDays(dayOf(world.clock.now()), 10);
    const id = (await api.post('/v1/live/subscriptions', monthly(start))).json().data.id as string;
    const rec = [...psp.automatic.recs.values()].find((r) => r.status === 'CRIADA')!;
    psp.automatic.answer(rec.idRec, 'APROVADA');
    await run();
    world.clock.advance(5 * DAY_MS);
    await run();
    const cobrs = [...psp.automatic.cobrs.values()].filter((c) => c.idRec === rec.idRec);
    expect(cobrs).toHaveLength(1);
    expect(cobrs[0]).toMatchObject({ status: 'ATIVA', dueDate: start });
    const cycle = (await api.get(`/v1/live/subscriptions/${id}`)).json().data;
    expect(cycle.status).toBe('active');
  });

  it('naming another account is refused by the PSP', async () => {
    const { live: api } = await liveWorkspace(world, 'Outra Conta Ltda');
    const start = addDays(dayOf(world.clock.now()), 10);
    await api.post('/v1/live/subscriptions', monthly(start));
    const rec = [...psp.automatic.recs.values()].find((r) => r.status === 'CRIADA')!;
    psp.automatic.answer(rec.idRec, 'APROVADA');
    const stranger = new BcbPixProvider(
      psp.settings(live.webhookUrl, { receiver: { account: '999999', accountType: 'CORRENTE' } }),
      world.clock,
    );
    await expect(
      stranger.automatic!.createRecurringCharge({
        txid: 'a'.repeat(32),
        idRec: rec.idRec,
        dueDate: start,
        amountMinor: 3500n,
      }),
    ).rejects.toThrow(/não pertence/);
    expect(psp.automatic.cobrs.has('a'.repeat(32))).toBe(false);
  });

  it('without the receiver’s account settings, a live subscription answers 503 naming them', async () => {
    const bare = await startWorld({
      sandboxSettleMs: 0,
      pix: { provider: 'bcb', bcb: psp.settings(live.webhookUrl, { receiver: undefined }) },
    });
    try {
      const { live: api } = await liveWorkspace(bare, 'Sem Conta Ltda');
      const recs = psp.automatic.recs.size;
      const res = await api.post('/v1/live/subscriptions', monthly(addDays(dayOf(bare.clock.now()), 10)));
      expect(res.statusCode).toBe(503);
      expect(res.json().error).toBe('provider_unavailable');
      expect(res.json().message).toContain('PIX_RECEIVER_ACCOUNT');
      expect(psp.automatic.recs.size).toBe(recs);
    } finally {
      await bare.close();
    }
  });
});
