/** A subscription's moves between statuses, each with its event. */
import type { Queryable, Tx } from '../../db/types.ts';
import { cyclesOf, rowScope, type SubscriptionRow, setSubscriptionStatus } from './repo.ts';
import type { SubscriptionStatus, SubscriptionView } from './schemas.ts';
import { emitSubscriptionEvent, subscriptionView } from './views.ts';

export async function viewOf(q: Queryable, row: SubscriptionRow): Promise<SubscriptionView> {
  return subscriptionView(row, await cyclesOf(q, rowScope(row), row.id));
}

/** Moves a subscription to `to` and emits its event with the subscription as it now is. */
export async function moveSubscription(
  tx: Tx,
  row: SubscriptionRow,
  change: { to: SubscriptionStatus; at: Date; cancelledBy?: 'receiver' | 'payer'; authorised?: boolean },
): Promise<SubscriptionView> {
  const moved = await setSubscriptionStatus(tx, rowScope(row), row.id, change);
  const view = await viewOf(tx, moved);
  const type = change.to === 'active' ? 'subscription.authorised' : (`subscription.${change.to}` as const);
  if (type !== 'subscription.pending_authorisation')
    await emitSubscriptionEvent(tx, type, moved, view, change.at);
  return view;
}
