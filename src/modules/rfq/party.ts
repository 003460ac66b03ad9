import type { Queryable } from '../../db/types.ts';
import { forbidden } from '../../platform/errors.ts';
import { partyStatus } from './repo.ts';

/**
 * A blocked party may not convert: quotes and executes of its money are refused (403), like its
 * payouts. The one hook for that rule in the RFQ module.
 * TODO(parties): when the parties branch lands, replace the body with its
 * `assertMayMoveMoney(q, workspaceId, partyId)` from modules/parties/service.ts (same rule, one place).
 */
export async function assertMayConvert(q: Queryable, workspaceId: string, partyId: string): Promise<void> {
  if ((await partyStatus(q, workspaceId, partyId)) === 'blocked') {
    throw forbidden(
      'This customer is blocked: its money cannot move until the workspace sets its status back to active.',
    );
  }
}
