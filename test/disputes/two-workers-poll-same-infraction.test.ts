/**
 * Two workers poll the PSP's infractions at once (each runs every task) and both find the same new
 * infraction: one opens its dispute, the other finds it opened. Neither sets the infraction aside as
 * a conflict. PostgreSQL only: PGlite has one connection, so the polls cannot overlap there.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { pollLiveInfractions } from '../../src/modules/disputes/infractions.ts';
import { liveWorkspace, startLiveWorld } from '../pix/live-support.ts';
import { onRealPostgres } from '../support/database.ts';

const live = await startLiveWorld();
const { world, psp } = live;
afterAll(() => live.close());

describe.skipIf(!onRealPostgres())('two workers polling the same new infraction', () => {
  it('one opens the dispute, the other finds it opened: nothing is set aside', async () => {
    const { live: api } = await liveWorkspace(world, 'Dois workers');
    const charge = (await api.post('/v1/live/pix/charges', { amount_minor: '10000' })).json().data;
    const { endToEndId } = await psp.pay(charge.pix_txid);
    psp.openInfraction(endToEndId, { razao: 'Pagador relata golpe' });

    // Both polls read "no dispute yet" and queue on the cash-in, held here until both are waiting.
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const holder = world.deps.db.transaction(async (tx) => {
      await tx.query('SELECT 1 FROM payments WHERE id = $1 FOR UPDATE', [charge.id]);
      locked();
      await held;
    });
    await isLocked;
    const polls = [pollLiveInfractions(world.deps), pollLiveInfractions(world.deps)];
    await new Promise((resolve) => setTimeout(resolve, 500));
    release();
    await holder;
    const results = await Promise.allSettled(polls);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    const disputes = (await api.get('/v1/live/disputes')).json().data;
    expect(disputes).toHaveLength(1);
    expect(disputes[0]).toMatchObject({ status: 'open', held_minor: '10000' });
  });
});
