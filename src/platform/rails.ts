/**
 * The rails: each way money enters or leaves a workspace, declared once. Every list that names
 * payment kinds, the system accounts a rail settles through, or the route groups a parent may act on
 * for its sub-account is derived from here (payments' kinds and their schema enum, the ledger's
 * system kinds, the acting check, the SDK's generated constants and through them the dashboard), and
 * `test/platform/rails.test.ts` fails when the database's CHECK constraints, the verify rules or the
 * dashboard's labels miss one. docs/architecture.md says how a new rail is added.
 *
 * Plain data with no imports, so the ledger, the platform and the dashboard's build can all read it.
 */
export const RAILS = {
  pix: {
    /**
     * A charge paid in, a payout, the refund of a charge, a MED return the PSP made on a charge, a
     * Pix Automático subscription's cycle paid in.
     */
    paymentKinds: ['pix_cash_in', 'pix_cash_out', 'pix_refund', 'pix_med_return', 'pix_automatic'],
    /** The system account the rail's money passes through (one per workspace and environment). */
    settlementAccount: 'pix_settlement',
    /** Route groups (paths under /v1/{env}/) that take X-Subaccount-Id: spec Authentication rule 9. */
    actingGroups: ['pix', 'payment-links', 'simulate/pix'],
  },
  crypto: {
    paymentKinds: ['crypto_send', 'crypto_deposit'],
    settlementAccount: 'crypto_custody',
    actingGroups: ['wallets', 'crypto', 'simulate/crypto'],
  },
  rfq: {
    paymentKinds: ['rfq_settlement'],
    settlementAccount: 'fx_inventory',
    actingGroups: ['rfq', 'simulate/quotes'],
  },
} as const;

export type RailName = keyof typeof RAILS;
export type PaymentKind = (typeof RAILS)[RailName]['paymentKinds'][number];
export type SettlementAccountKind = (typeof RAILS)[RailName]['settlementAccount'];

const rails = Object.values(RAILS);

/** Every payment kind, rail by rail in declaration order. */
export const PAYMENT_KINDS = rails.flatMap((rail) => rail.paymentKinds) as readonly PaymentKind[];

/**
 * The system accounts of a workspace: each rail's settlement account, the fees it earns, and what
 * its parties owe the service (a return the PSP made that took more than the party held).
 */
export type SystemKind = SettlementAccountKind | 'fee_revenue' | 'party_receivable';
export const SYSTEM_KINDS: readonly SystemKind[] = [
  ...rails.map((rail) => rail.settlementAccount),
  'fee_revenue',
  'party_receivable',
];

/**
 * The route groups on which a workspace-level caller may act on its sub-account: the rails' own and
 * the ledger's reads every rail writes to (balances, its alias, payments as the spec's transactions,
 * the statement) and the sandbox payment helpers, which settle any rail's payment.
 */
export const ACTING_GROUPS: readonly string[] = [
  'balances',
  'account/balances',
  'payments',
  'statement',
  'simulate/payments',
  ...rails.flatMap((rail) => rail.actingGroups),
];

/** The rail a payment kind belongs to. */
export function railOf(kind: PaymentKind): RailName {
  for (const [name, rail] of Object.entries(RAILS)) {
    if ((rail.paymentKinds as readonly string[]).includes(kind)) return name as RailName;
  }
  throw new Error(`payment kind ${kind} belongs to no rail`);
}
