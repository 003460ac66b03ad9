/**
 * The sandbox test clock: an advance moves the workspace's sandbox now ahead (and only its own), is
 * audited, refuses bad bodies leaving the clock as it was, and live has no clock at all.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { nowFor } from '../../src/modules/test-clock/index.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const DAY_MS = 86_400_000;

describe('sandbox test clock', () => {
  it('starts at real now, and an advance of 30 days moves sandbox now 30 days ahead', async () => {
    const ws = await world.workspace();
    const before = await ws.api.get('/v1/sandbox/test-clock');
    expect(before.statusCode, before.body).toBe(200);
    expect(before.json().data).toMatchObject({ workspace_id: ws.owner.workspaceId, offset_seconds: 0 });
    const res = await ws.api.post('/v1/sandbox/test-clock/advance', { days: 30 });
    expect(res.statusCode, res.body).toBe(200);
    const clock = res.json().data;
    expect(clock.offset_seconds).toBe(30 * 86_400);
    expect(Date.parse(clock.now) - Date.parse(clock.real_now)).toBe(30 * DAY_MS);
    const again = await ws.api.post('/v1/sandbox/test-clock/advance', { seconds: 60 });
    expect(again.json().data.offset_seconds).toBe(30 * 86_400 + 60);
    const read = (await ws.api.get('/v1/test/test-clock')).json().data;
    expect(read.offset_seconds).toBe(30 * 86_400 + 60);
  });

  it('moves only its own workspace, and live time never reads the offset', async () => {
    const ws = await world.workspace();
    const other = await world.workspace('Other Ltda');
    await ws.api.post('/v1/sandbox/test-clock/advance', { days: 10 });
    expect((await other.api.get('/v1/sandbox/test-clock')).json().data.offset_seconds).toBe(0);
    const real = new Date();
    const live = await nowFor(
      world.db,
      { now: () => real },
      { workspaceId: ws.owner.workspaceId, environment: 'live' },
    );
    expect(live).toEqual(real);
    const sandbox = await nowFor(
      world.db,
      { now: () => real },
      {
        workspaceId: ws.owner.workspaceId,
        environment: 'sandbox',
      },
    );
    expect(sandbox.getTime() - real.getTime()).toBe(10 * DAY_MS);
  });

  it('is audited with who advanced it and by how much', async () => {
    const ws = await world.workspace();
    await ws.api.post('/v1/sandbox/test-clock/advance', { days: 2 });
    const res = await ws.session.get('/v1/sandbox/audit-events');
    expect(res.statusCode, res.body).toBe(200);
    const entry = res.json().data.find((e: { action: string }) => e.action === 'sandbox.test_clock_advanced');
    expect(entry).toMatchObject({ actor_type: 'api_key', actor_id: ws.key.id });
    expect(entry.metadata).toMatchObject({ advanced_seconds: 172_800, offset_seconds: 172_800 });
  });

  it('refuses neither, both, zero, a fraction or an unknown field, and the clock stays where it was', async () => {
    const ws = await world.workspace();
    for (const body of [
      {},
      { days: 1, seconds: 1 },
      { days: 0 },
      { seconds: 1.5 },
      { days: 1, hours: 2 },
      { days: 3651 },
    ]) {
      const res = await ws.api.post('/v1/sandbox/test-clock/advance', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().error).toBe('invalid_request');
    }
    expect((await ws.api.get('/v1/sandbox/test-clock')).json().data.offset_seconds).toBe(0);
  });

  it('is not there in live: 404, and nothing moves', async () => {
    const ws = await world.workspace();
    const live = await ws.liveApi();
    const res = await live.post('/v1/live/test-clock/advance', { days: 1 });
    expect(res.statusCode, res.body).toBe(404);
    expect((await live.get('/v1/live/test-clock')).statusCode).toBe(404);
    expect((await ws.api.get('/v1/sandbox/test-clock')).json().data.offset_seconds).toBe(0);
  });

  it('a party-scoped key reads the clock but cannot move it', async () => {
    const ws = await world.workspace();
    const scoped = await ws.keyFor(await ws.addParty());
    expect((await scoped.get('/v1/sandbox/test-clock')).statusCode).toBe(200);
    const res = await scoped.post('/v1/sandbox/test-clock/advance', { days: 1 });
    expect(res.statusCode).toBe(403);
    expect(res.json().error).toBe('forbidden');
  });
});
