/**
 * dispute.deadline_approaching: 48 h, 24 h and 6 h before the deadline, each once, sent by the worker
 * task as the workspace's sandbox clock advances (POST /v1/sandbox/test-clock/advance); nothing once
 * the dispute is defended.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { sendDeadlineNotices } from '../../src/modules/disputes/deadlines.ts';
import { dispatch, receiverEndpoint, startWebhookWorld } from '../webhooks/helpers.ts';
import { disputeUrl, openDispute, paidCashIn } from './support.ts';

const world = await startWebhookWorld();
const { ctx, api, ws } = world;
afterAll(() => world.close());

const advanceHours = async (hours: number) => {
  const res = await ws.session.post('/v1/sandbox/test-clock/advance', { seconds: hours * 3600 });
  expect(res.statusCode, res.body).toBe(200);
};

describe('deadline notices', () => {
  it('are sent at 48 h, 24 h and 6 h before the deadline, once each, and stop after a defense', async () => {
    await receiverEndpoint(world, '/deadline', ['dispute.deadline_approaching']);
    const other = await ctx.workspace('Relógio Parado');
    const untouched = await openDispute(other.api, (await paidCashIn(other.api, '5000')).id);
    const dispute = await openDispute(api, (await paidCashIn(api, '5000')).id);
    const received = () => world.receiver.received('/deadline');
    expect(await sendDeadlineNotices(ctx.deps)).toBe(0);

    await advanceHours(25); // 47 h left
    expect(await sendDeadlineNotices(ctx.deps)).toBe(1);
    expect(await sendDeadlineNotices(ctx.deps)).toBe(0);
    await advanceHours(24); // 23 h left
    expect(await sendDeadlineNotices(ctx.deps)).toBe(1);
    await advanceHours(18); // 5 h left
    expect(await sendDeadlineNotices(ctx.deps)).toBe(1);
    expect(await sendDeadlineNotices(ctx.deps)).toBe(0);
    await dispatch(world);
    expect(received().map((r) => r.payload.data.object.deadline_notices_sent)).toEqual([
      ['48h'],
      ['24h', '48h'],
      ['24h', '48h', '6h'],
    ]);
    expect(received().every((r) => r.payload.type === 'dispute.deadline_approaching')).toBe(true);
    expect(received()[0]!.payload.data.object).toMatchObject({ id: dispute.id, status: 'open' });
    // Another workspace's sandbox clock did not move: its dispute heard nothing.
    expect((await other.api.get(disputeUrl(untouched.id))).json().data.deadline_notices_sent).toEqual([]);

    // Opened with less than 24 h left: one notice, the 48 h one counted as sent with it.
    const late = await openDispute(api, (await paidCashIn(api, '5000')).id, {
      deadline_at: new Date(Date.now() + (67 + 20) * 3600_000).toISOString(),
    });
    expect(await sendDeadlineNotices(ctx.deps)).toBe(1);
    expect((await api.get(disputeUrl(late.id))).json().data.deadline_notices_sent).toEqual(['24h', '48h']);

    // Defended, a dispute hears of its deadline no more.
    const defended = await openDispute(api, (await paidCashIn(api, '5000')).id);
    await api.post(`${disputeUrl(defended.id)}/defense`, { text: 'Delivered.' });
    await advanceHours(70);
    expect(await sendDeadlineNotices(ctx.deps)).toBe(0);
  });
});
