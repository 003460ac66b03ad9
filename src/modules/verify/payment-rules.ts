/**
 * The postings each payment must have, by kind and status, read off the flows that write them
 * (flows/outbound/, pix charge-payment and simulate, crypto deposits, rfq execute). A payment's
 * journals are summarised as the net per account class and a journal count:
 *   p:<kind>:<currency>          the payment's own party      o:…  any other party (split shares)
 *   s:<kind>:<currency>:<network> a system account of the workspace
 * Classes netting to zero are left out.
 */
import type { PaymentKind, PaymentStatus } from '../payments/schemas.ts';

export interface PaymentLedger {
  kind: PaymentKind;
  status: PaymentStatus;
  currency: string;
  network: string | null;
  amount: bigint;
  fee: bigint;
  /** rfq_settlement: metadata.target_amount_minor, target_currency, metadata.fee_currency. */
  targetAmount: bigint | null;
  targetCurrency: string | null;
  feeCurrency: string | null;
  journals: number;
  nets: Map<string, bigint>;
  /** pix_med_return: what its party still owes of it (pix_med_returns.outstanding_minor). */
  outstanding?: bigint | null;
  /**
   * pix_refund: the return of a PIX held without a charge (metadata held_return), whose money goes
   * back to suspense if it fails. Any other refund, of a cash-in that came from a held PIX too, gives
   * its money back to its party, as every refund does.
   */
  toSuspense?: boolean;
}

type Expected = { journals: number; nets: Record<string, bigint> /** classes not compared */; free?: RegExp };
type Rule = (p: PaymentLedger) => Expected | string;

const feeOf = (p: PaymentLedger, currency: string): Record<string, bigint> =>
  p.fee > 0n ? { [`s:fee_revenue:${currency}:`]: p.fee } : {};

/** Money held at creation, then paid out through the rail's settlement account, or given back. */
const outbound =
  (railAccount: (p: PaymentLedger) => string): Rule =>
  (p) => {
    const c = p.currency;
    const total = p.amount + p.fee;
    if (p.status === 'created' || p.status === 'processing')
      return { journals: 1, nets: { [`p:available:${c}`]: -total, [`p:locked:${c}`]: total } };
    if (p.status === 'completed')
      return {
        journals: 2,
        nets: { [`p:available:${c}`]: -total, [railAccount(p)]: p.amount, ...feeOf(p, c) },
      };
    if (p.status === 'failed' && p.toSuspense)
      return { journals: 3, nets: { [`p:available:${c}`]: -p.amount, [railAccount(p)]: p.amount } };
    if (p.status === 'failed') return { journals: 2, nets: {} };
    return `an outgoing payment cannot be ${p.status}`;
  };

const pixSettlement = () => 's:pix_settlement:BRL:';
const custody = (p: PaymentLedger) => `s:crypto_custody:${p.currency}:${p.network ?? ''}`;

const cashIn: Rule = (p) => {
  const c = p.currency;
  if (p.status === 'created' || p.status === 'expired') return { journals: 0, nets: {} };
  if (p.status === 'completed' || p.status === 'refunded')
    return {
      journals: 1,
      nets: { [pixSettlement()]: -p.amount, [`*:available:${c}`]: p.amount - p.fee, ...feeOf(p, c) },
    };
  return `a charge cannot be ${p.status}`;
};

/**
 * A Pix Automático cycle: paid, it is credited as a cash-in, whole to its own party (a cycle has no
 * split); scheduled, expired on cancellation or failed after its attempts, it moved nothing.
 */
const automaticCycle: Rule = (p) => {
  const c = p.currency;
  if (p.status === 'created' || p.status === 'expired' || p.status === 'failed')
    return { journals: 0, nets: {} };
  if (p.status === 'completed' || p.status === 'refunded')
    return {
      journals: 1,
      nets: { [pixSettlement()]: -p.amount, [`p:available:${c}`]: p.amount - p.fee, ...feeOf(p, c) },
    };
  return `a subscription cycle cannot be ${p.status}`;
};

/**
 * A MED return: the whole amount left through PIX settlement, taken from its party's available but
 * for what it still owes, which sits in the workspace's party_receivable; each credit that paid part
 * of the debt since is one more journal, moving it from available to the receivable.
 */
const medReturn: Rule = (p) => {
  if (p.status !== 'completed') return `a MED return cannot be ${p.status}`;
  if (p.outstanding === null || p.outstanding === undefined) return 'a MED return without its record';
  const c = p.currency;
  return {
    journals: Math.max(1, p.journals),
    nets: {
      [pixSettlement()]: p.amount,
      [`p:available:${c}`]: -(p.amount - p.outstanding),
      [`s:party_receivable:${c}:`]: -p.outstanding,
    },
  };
};

const deposit: Rule = (p) => {
  if (p.status !== 'completed') return `a deposit cannot be ${p.status}`;
  return { journals: 1, nets: { [custody(p)]: -p.amount, [`p:available:${p.currency}`]: p.amount } };
};

/** Born completed; the FX inventory legs follow from the journal balancing. */
const conversion: Rule = (p) => {
  if (p.status !== 'completed') return `a conversion cannot be ${p.status}`;
  if (p.targetAmount === null || !p.targetCurrency || !p.feeCurrency)
    return 'a conversion without its target amount';
  return {
    journals: 1,
    nets: {
      [`p:available:${p.currency}`]: -p.amount,
      [`p:available:${p.targetCurrency}`]: p.targetAmount,
      ...feeOf(p, p.feeCurrency),
    },
    free: /^s:fx_inventory:/,
  };
};

/** One rule per payment kind: a kind a rail adds without its rule does not typecheck. */
export const PAYMENT_RULES: Record<PaymentKind, Rule> = {
  pix_cash_in: cashIn,
  pix_cash_out: outbound(pixSettlement),
  pix_refund: outbound(pixSettlement),
  pix_med_return: medReturn,
  pix_automatic: automaticCycle,
  crypto_send: outbound(custody),
  crypto_deposit: deposit,
  rfq_settlement: conversion,
};

/** What is wrong with a payment's postings, or undefined when they are exactly what its kind requires. */
export function paymentLedgerProblem(p: PaymentLedger): string | undefined {
  const rule = PAYMENT_RULES[p.kind](p);
  if (typeof rule === 'string') return rule;
  if (p.journals !== rule.journals)
    return `${p.journals} journals, ${p.kind} ${p.status} needs ${rule.journals}`;
  const actual = new Map<string, bigint>();
  for (const [cls, net] of p.nets) {
    if (rule.free?.test(cls)) continue;
    // A charge's net may be shared by a payment link's split: its own party and others together.
    const key = p.kind === 'pix_cash_in' && /^[po]:available:/.test(cls) ? `*:${cls.slice(2)}` : cls;
    actual.set(key, (actual.get(key) ?? 0n) + net);
  }
  const want = new Map(Object.entries(rule.nets).filter(([, net]) => net !== 0n));
  for (const [cls, net] of actual) if (net === 0n) actual.delete(cls);
  const describe = (m: Map<string, bigint>) =>
    [...m]
      .map(([k, v]) => `${k}=${v}`)
      .sort()
      .join(', ') || 'nothing';
  if (describe(actual) !== describe(want))
    return `postings net ${describe(actual)}; expected ${describe(want)}`;
  return undefined;
}
