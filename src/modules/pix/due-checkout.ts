/**
 * A due-date charge as its public page shows it (/pay/due/{token}, routes/due-charge-page.ts). The
 * amount on the page is the API's own view of the charge (dueChargeView): the same amountDue on the
 * same day (the sandbox clock's in sandbox, São Paulo's in live) that paying it today is credited.
 */
import type { Deps } from '../../platform/context.ts';
import { findPayment } from '../payments/service.ts';
import { findWorkspaceRow } from '../workspace/service.ts';
import { dueChargeView, todayFor } from './due-charges.ts';
import { findDueCharge } from './due-charges-repo.ts';
import { openDueCheckoutToken } from './due-checkout-token.ts';
import type { DueChargeResponse } from './due-schemas.ts';

/**
 * What the page can say: open (payable today, with its amount and BR Code), nothing_due (payable,
 * but its rebate and discount leave nothing today), paid, expired (past its last payable day, or
 * expired by the sweep), cancelled (by its receiver), or closed (any other end, such as a failure).
 */
export type DueChargePageState = 'open' | 'nothing_due' | 'paid' | 'expired' | 'cancelled' | 'closed';

export interface DueChargeForPage {
  charge: DueChargeResponse;
  state: DueChargePageState;
  /** The workspace's display name: the payer sees whom they pay. */
  merchantName: string;
  sandbox: boolean;
}

export function pageStateOf(charge: DueChargeResponse): DueChargePageState {
  if (charge.status === 'completed' || charge.status === 'refunded') return 'paid';
  if (charge.status === 'cancelled') return 'cancelled';
  if (charge.status === 'expired' || charge.today > charge.last_payable_date) return 'expired';
  if (charge.status !== 'created') return 'closed';
  return charge.amount_due_today_minor === '0' ? 'nothing_due' : 'open';
}

/** The charge a page token names, as its page shows it; undefined for a token that names none. */
export async function dueChargeForPage(deps: Deps, token: string): Promise<DueChargeForPage | undefined> {
  const ref = openDueCheckoutToken(deps.sealer, token);
  if (!ref) return undefined;
  const scope = { workspaceId: ref.workspaceId, environment: ref.environment };
  const payment = await findPayment(deps.db, scope, ref.paymentId);
  const row = payment && (await findDueCharge(deps.db, scope, ref.paymentId));
  if (!payment || !row) return undefined;
  const charge = dueChargeView(payment, row, await todayFor(deps.db, deps, scope), deps);
  const workspace = await findWorkspaceRow(deps.db, ref.workspaceId);
  return {
    charge,
    state: pageStateOf(charge),
    merchantName: workspace?.display_name ?? '',
    sandbox: ref.environment === 'sandbox',
  };
}
