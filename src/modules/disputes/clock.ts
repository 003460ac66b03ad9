import type { Queryable } from '../../db/types.ts';
import type { Deps, Environment } from '../../platform/context.ts';
import { nowFor } from '../test-clock/index.ts';

/**
 * "Now" for a dispute's deadline: live runs on the service's clock; a workspace's sandbox on its own
 * test clock (POST /v1/sandbox/test-clock/advance moves it ahead), so a sandbox deadline comes by
 * advancing the clock rather than by waiting three days.
 */
export function disputeNow(
  deps: Deps,
  scope: { workspaceId: string; environment: Environment },
  q: Queryable = deps.db,
): Promise<Date> {
  return nowFor(q, deps.clock, scope);
}
