import { randomUUID } from 'node:crypto';
import type { Deps } from '../../../platform/context.ts';
import { type DueDelivery, leaseDeliveries, selectDueDeliveries } from '../repo.ts';

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
  return deps.db.transaction(async (tx) => {
    const rows = await selectDueDeliveries(tx, {
      now,
      perEndpoint: bounds.perEndpoint,
      skipEndpoints: saturated,
      afterEndpoint: bounds.afterEndpoint,
      limit: bounds.room,
    });
    const claims = withinEndpointBound(rows, bounds);
    if (claims.length === 0) return [];
    const token = randomUUID();
    await leaseDeliveries(tx, claims, new Date(now.getTime() + bounds.leaseMs), token);
    return claims.map((claim) => ({ ...claim, lease_token: token }));
  });
}

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
