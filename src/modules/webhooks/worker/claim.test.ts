/**
 * Both shapes of the claim take the same deliveries in the same order: the one statement a single
 * node runs, and the workspace-by-workspace claim a Citus cluster needs (FOR UPDATE cannot span its
 * shards). The expectation is the round-robin spelled out over a plain read of the due deliveries.
 * On Citus (TEST_DATABASE_URL at a coordinator) only the workspace-by-workspace claim runs.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, onCitus } from '../../../../test/support/database.ts';
import { seedWorkspace } from '../../../../test/support/world.ts';
import type { Database } from '../../../db/types.ts';
import type { Deps } from '../../../platform/context.ts';
import { newId } from '../../../platform/ids.ts';
import { emitEvent } from '../../../platform/outbox.ts';
import { type ClaimBounds, claimDue } from './claim.ts';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
const NOW = new Date('2030-01-01T00:00:00Z');
const PER_ENDPOINT = 2;

let db: Database;
let deps: Deps;
/** Endpoints in id order (the round-robin's), each with its workspace. */
let endpoints: { workspaceId: string; id: string }[];

async function addEndpoint(workspaceId: string, status = 'enabled') {
  const id = newId();
  await db.query(
    `INSERT INTO webhook_endpoints (workspace_id, id, environment, url, status, secret_enc, created_at, updated_at)
     VALUES ($1, $2, 'sandbox', 'https://example.com/hook', $3, 'sealed', $4, $4)`,
    [workspaceId, id, status, NOW],
  );
  return { workspaceId, id };
}

beforeAll(async () => {
  db = await createTestDatabase();
  deps = { db, clock: { now: () => NOW } } as Deps;
  const workspaces = [];
  for (let i = 0; i < 3; i++) workspaces.push((await seedWorkspace(db)).workspaceId);
  const [a, b, c] = workspaces as [string, string, string];
  // Endpoints made in turns so the round-robin goes back and forth between workspaces.
  endpoints = [];
  for (const workspaceId of [a, b, c, a, c]) endpoints.push(await addEndpoint(workspaceId));
  endpoints.sort((x, y) => (x.id < y.id ? -1 : 1));
  await addEndpoint(c, 'disabled');
  // Three events per workspace, a minute apart: each enabled endpoint gets three due deliveries.
  for (let minute = 3; minute > 0; minute--)
    for (const workspaceId of workspaces)
      await db.transaction((tx) =>
        emitEvent(tx, {
          workspaceId,
          environment: 'sandbox',
          type: 'payment.completed',
          object: { minute },
          at: new Date(NOW.getTime() - minute * 60_000),
        }),
      );
}, 120_000);

afterAll(async () => {
  await db?.close();
});

beforeEach(async () => {
  await db.query(
    `UPDATE webhook_deliveries SET locked_until = NULL, lease_token = NULL WHERE status = 'pending'`,
  );
});

/**
 * What a claim must take of the deliveries no claim holds: endpoints after `after` first, then from
 * the start; `perEndpoint` each; `limit` in all.
 */
async function expected(after: string, skip: string[], limit: number): Promise<string[]> {
  const { rows } = await db.query<{ id: string; endpoint_id: string }>(
    `SELECT id, endpoint_id FROM webhook_deliveries WHERE status = 'pending' AND locked_until IS NULL
      ORDER BY next_attempt_at, id`,
  );
  const order = [...endpoints.filter((e) => e.id > after), ...endpoints.filter((e) => e.id <= after)];
  return order
    .filter((endpoint) => !skip.includes(endpoint.id))
    .flatMap((endpoint) =>
      rows
        .filter((row) => row.endpoint_id === endpoint.id)
        .slice(0, PER_ENDPOINT)
        .map((row) => row.id),
    )
    .slice(0, limit);
}

const bounds = (perWorkspace: boolean, over: Partial<ClaimBounds> = {}): ClaimBounds => ({
  room: 100,
  perEndpoint: PER_ENDPOINT,
  inFlightByEndpoint: new Map(),
  afterEndpoint: NIL_UUID,
  leaseMs: 60_000,
  perWorkspace,
  ...over,
});

const shapes = onCitus() ? [true] : [false, true];

describe.each(shapes)('the claim (workspace by workspace: %s)', (perWorkspace) => {
  it('takes each endpoint in round-robin order, at most perEndpoint of each', async () => {
    const want = await expected(NIL_UUID, [], 100);
    const claims = await claimDue(deps, bounds(perWorkspace));
    expect(claims.map((claim) => claim.id)).toEqual(want);
    expect(want).toHaveLength(endpoints.length * PER_ENDPOINT);
    expect(
      claims.every((claim) => claim.payload.data.object !== undefined && claim.secret_enc === 'sealed'),
    ).toBe(true);
    expect(new Set(claims.map((claim) => claim.lease_token)).size).toBe(1);
  });

  it('starts after the round-robin position, skips saturated endpoints, and stops at the room left', async () => {
    const after = endpoints[1]!.id;
    const saturated = endpoints[3]!.id;
    const want = await expected(after, [saturated], 5);
    const claims = await claimDue(
      deps,
      bounds(perWorkspace, { afterEndpoint: after, room: 5, inFlightByEndpoint: new Map([[saturated, 2]]) }),
    );
    expect(claims.map((claim) => claim.id)).toEqual(want);
  });

  it('leaves what another claim leased: the next claim takes the rest', async () => {
    const firstExpected = await expected(NIL_UUID, [], 3);
    const first = await claimDue(deps, bounds(perWorkspace, { room: 3 }));
    expect(first.map((claim) => claim.id)).toEqual(firstExpected);
    const secondExpected = await expected(NIL_UUID, [], 100);
    expect(secondExpected.filter((id) => firstExpected.includes(id))).toEqual([]);
    const second = await claimDue(deps, bounds(perWorkspace));
    expect(second.map((claim) => claim.id)).toEqual(secondExpected);
  });
});
