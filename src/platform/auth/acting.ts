import { ACTING_GROUPS } from '../rails.ts';

/**
 * The route groups on which a workspace-level caller may act on its sub-account with X-Subaccount-Id
 * (spec Authentication rule 9): balances, wallets, transactions, statement, crypto, pix, payment-links
 * and rfq. A route opts in with `config.subaccount: true`; the shared auth suite checks that exactly
 * the routes of these groups do, so a route added to a group later must take the header and a route
 * elsewhere must refuse it (400).
 *
 * Readings: "transactions" are the payments routes (a sub-account's payments are its transactions);
 * /account/balances is the balances alias; the sandbox helpers of a group belong to it (a parent funds
 * and settles its sub-accounts: simulate/pix and simulate/payments are pix, simulate/crypto is crypto,
 * simulate/quotes is rfq). Customers, KYC, sub-accounts, keys, workspace, webhooks, events and audit
 * routes are not in the list and refuse the header. The groups are declared with their rails
 * (src/platform/rails.ts).
 */
export { ACTING_GROUPS } from '../rails.ts';

/** Whether a /v1/:env route path belongs to one of the acting groups. */
export function inActingGroup(url: string): boolean {
  const rest = url.replace(/^\/v1\/:env\//, '');
  return ACTING_GROUPS.some(
    (group) => rest === group || rest.startsWith(`${group}/`) || rest.startsWith(`${group}.`),
  );
}
