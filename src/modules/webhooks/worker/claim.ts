import { randomUUID } from 'node:crypto';
import type { Tx } from '../../../db/types.ts';
import type { Deps } from '../../../platform/context.ts';
import {
  type DueDelivery,
  type DueQuery,
  leaseDeliveries,
  leaseWorkspaceDeliveries,
  lockDueDeliveries,
  peekDueDeliveries,
  selectDueDeliveries,
} from '../repo.ts';

/** A claimed delivery: only the holder of its lease token may record its attempt. */
export type LeasedDelivery = DueDelivery & { lease_token: string };

/** What one claim may take, given what this process already has in flight. */
export interface ClaimBounds {
  /** Deliveries this process may still start. */
  room: number;
  /** Attempts in flight at once to one endpoint. */
  perEndpoint: number;
  /** This process's attempts in flight, by endpoint. */
  inFlightByEndpoint: ReadonlyMap<string, number>;
  /** The round-robin's position: endpoints after this one are served first. */
  afterEndpoint: string;
  leaseMs: number;
  /**
   * Claim workspace by workspace (a Citus cluster, where FOR UPDATE cannot span shards) rather than
   * in the one statement a single node runs fastest.
   */
  perWorkspace: boolean;
}

/**
 * Claims the due deliveries this process has room for and leases them in one committed
 * transaction, so they are sent outside any transaction and no other dispatcher takes them while
 * the lease lasts.
 */
export async function claimDue(deps: Deps, bounds: ClaimBounds): Promise<LeasedDelivery[]> {
  const now = deps.clock.now();
  const saturated = [...bounds.inFlightByEndpoint]
    .filter(([, count]) => count >= bounds.perEndpoint)
    .map(([endpointId]) => endpointId);
  const due: DueQuery = {
    now,
    perEndpoint: bounds.perEndpoint,
    skipEndpoints: saturated,
    afterEndpoint: bounds.afterEndpoint,
    limit: bounds.room,
  };
  return deps.db.transaction(async (tx) => {
    const rows = bounds.perWorkspace ? await selectPerWorkspace(tx, due) : await selectDueDeliveries(tx, due);
    const claims = withinEndpointBound(rows, bounds);
    if (claims.length === 0) return [];
    const token = randomUUID();
    const lockedUntil = new Date(now.getTime() + bounds.leaseMs);
    if (bounds.perWorkspace)
      for (const [workspaceId, ids] of idsByWorkspace(claims))
        await leaseWorkspaceDeliveries(tx, workspaceId, ids, lockedUntil, token);
    else await leaseDeliveries(tx, claims, lockedUntil, token);
    return claims.map((claim) => ({ ...claim, lease_token: token }));
  });
}

/**
 * The claim's rows on Citus: the due deliveries read across every shard without locks, then locked
 * one workspace at a time, each statement on one shard (claimDue leases them the same way). Answers
 * them in the one statement's order (the round-robin's), less those another claim took meanwhile.
 */
async function selectPerWorkspace(tx: Tx, due: DueQuery): Promise<DueDelivery[]> {
  const candidates = await peekDueDeliveries(tx, due);
  const locked: DueDelivery[] = [];
  for (const [workspaceId, ids] of idsByWorkspace(candidates))
    locked.push(...(await lockDueDeliveries(tx, due.now, workspaceId, ids)));
  const position = new Map(candidates.map((row, index) => [deliveryKey(row), index]));
  return locked.sort((a, b) => position.get(deliveryKey(a))! - position.get(deliveryKey(b))!);
}

/** Delivery ids by workspace, in their order, the workspaces in the order they first appear. */
function idsByWorkspace(rows: readonly { workspace_id: string; id: string }[]): Map<string, string[]> {
  const byWorkspace = new Map<string, string[]>();
  for (const { workspace_id, id } of rows) {
    const ids = byWorkspace.get(workspace_id);
    if (ids) ids.push(id);
    else byWorkspace.set(workspace_id, [id]);
  }
  return byWorkspace;
}

const deliveryKey = (row: { workspace_id: string; id: string }) => `${row.workspace_id}/${row.id}`;

/** Keeps each endpoint within its bound, counting what this process already has in flight. */
function withinEndpointBound(rows: DueDelivery[], bounds: ClaimBounds): DueDelivery[] {
  const taken = new Map<string, number>();
  return rows.filter((row) => {
    const mine = taken.get(row.endpoint_id) ?? 0;
    if ((bounds.inFlightByEndpoint.get(row.endpoint_id) ?? 0) + mine >= bounds.perEndpoint) return false;
    taken.set(row.endpoint_id, mine + 1);
    return true;
  });
}
