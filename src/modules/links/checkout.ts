/**
 * The public checkout behind /pay/{slug}: no caller, only a slug. A charge is created through the PIX
 * module as the link's workspace would create it (a system caller scoped to the link's owner), and
 * its checkout record, with the split in force at that moment, is written in the charge's own
 * transaction.
 */
import type { Tx } from '../../db/types.ts';
import { formatAmount, parseAmount } from '../../ledger/currency.ts';
import type { Caller, Deps } from '../../platform/context.ts';
import { AppError, invalidRequest, notFound } from '../../platform/errors.ts';
import type { KeyOwner } from '../../platform/idempotency.ts';
import { type Ctx, systemContext } from '../../platform/request-context.ts';
import type { PaymentView } from '../payments/schemas.ts';
import { findPayment } from '../payments/service.ts';
import { createCharge, qrPngDataUrl } from '../pix/service.ts';
import { findWorkspaceRow } from '../workspace/service.ts';
import {
  findCheckout,
  findLink,
  findLinkBySlug,
  insertCheckout,
  type LinkRow,
  listSplitRows,
} from './repo.ts';
import type { CheckoutInput, LinkStatus, PublicPaymentView } from './schemas.ts';
import { documentOf, linkStatus, PAYER_DOCUMENT_HASH } from './service.ts';

/** How long a checkout's BR Code may be paid: long enough to open a bank app, short enough to expire. */
export const CHECKOUT_CHARGE_SECONDS = 30 * 60;

const scopeOf = (link: LinkRow) => ({ workspaceId: link.workspace_id, environment: link.environment });

/** A checkout charge's shortest life: a link closer than this to its expiry takes no checkout. */
const MIN_CHARGE_SECONDS = 60;

/** Why a link takes no payment now: its status, or its workspace's live payments turned off. */
export type Refusal = Exclude<LinkStatus, 'active'> | 'production_off';

/**
 * Why the link would refuse a checkout now, or undefined when it takes one. The page and the checkout
 * both ask this, so a page never shows a form whose checkout would be refused.
 */
function refusalOf(
  deps: Deps,
  link: LinkRow,
  workspace: { production_enabled: boolean } | undefined,
): Refusal | undefined {
  const now = deps.clock.now();
  const status = linkStatus(link, now);
  if (status !== 'active') return status;
  // Its charge could not live the shortest life a charge has without outliving the link.
  if (link.expires_at && link.expires_at.getTime() - now.getTime() < MIN_CHARGE_SECONDS * 1000)
    return 'expired';
  // A live link takes real money only while its workspace's production is on, as a live key does.
  if (link.environment === 'live' && !workspace?.production_enabled) return 'production_off';
  return undefined;
}

/** A link as its page shows it: the link, why it takes no payment now (if so), and whose it is. */
export interface LinkForPage {
  link: LinkRow;
  refusal: Refusal | undefined;
  /** The workspace's display name: the payer sees whom they pay. */
  merchantName: string;
}

/** The link a slug names, for its page; undefined for an unknown slug. */
export async function linkForPage(deps: Deps, slug: string): Promise<LinkForPage | undefined> {
  const link = await findLinkBySlug(deps.db, slug);
  if (!link) return undefined;
  const workspace = await findWorkspaceRow(deps.db, link.workspace_id);
  return {
    link,
    refusal: refusalOf(deps, link, workspace),
    merchantName: workspace?.display_name ?? '',
  };
}

const refused = (refusal: Refusal) =>
  refusal === 'production_off'
    ? new AppError(
        'production_not_enabled',
        "This payment link is live, and its workspace's production is off: it takes no payments.",
      )
    : closed(refusal);

const closed = (status: LinkStatus) =>
  new AppError('invalid_state', `This payment link is ${status} and takes no payments.`);

/** What the buyer pays: the link's fixed amount, or theirs on an open-amount link. */
function amountFor(link: LinkRow, asked: string | undefined): bigint {
  if (!link.allow_custom_amount) {
    if (asked !== undefined && parseAmount(asked, { field: 'body.amount_minor' }) !== link.amount_minor) {
      throw new AppError('invalid_amount', 'This link has a fixed amount.', [
        { field: 'body.amount_minor', issue: `must be absent or ${link.amount_minor}` },
      ]);
    }
    return link.amount_minor!;
  }
  if (asked !== undefined) return parseAmount(asked, { field: 'body.amount_minor' });
  if (link.amount_minor !== null) return link.amount_minor;
  throw new AppError('invalid_amount', 'Enter the amount to pay.', [
    { field: 'body.amount_minor', issue: 'required on an open-amount link' },
  ]);
}

/**
 * How long a checkout charge may be paid: CHECKOUT_CHARGE_SECONDS, never past the link's own
 * expiry; a link too close to it (under the shortest life of a charge) takes no checkout.
 */
function chargeSeconds(link: LinkRow, now: Date): number {
  if (!link.expires_at) return CHECKOUT_CHARGE_SECONDS;
  const left = Math.floor((link.expires_at.getTime() - now.getTime()) / 1000);
  if (left < MIN_CHARGE_SECONDS) throw closed('expired');
  return Math.min(CHECKOUT_CHARGE_SECONDS, left);
}

/** The link's workspace and environment, as its owner party: what the charge is created as. */
function linkCaller(link: LinkRow): Caller {
  // No key or session stands behind it; the type only decides how an audit entry names the actor.
  return {
    type: 'api_key',
    workspaceId: link.workspace_id,
    callerWorkspaceId: link.workspace_id,
    environment: link.environment,
    partyId: link.party_id,
  };
}

/** Runs the checkout's write under the Idempotency-Key the page sent, among the keys of `owner`. */
export type CheckoutWrite = <T>(owner: KeyOwner, fn: (tx: Tx) => Promise<T>) => Promise<T>;
/** Acts once under the link's key: a re-send whose answer is stored gets it, without a second charge. */
export type CheckoutOnce = (owner: KeyOwner, act: () => Promise<PaymentView>) => Promise<PaymentView>;

/**
 * Starts paying a link. The page sends a key of its own with each pay request, so a re-send whose
 * answer was lost replays the charge it made instead of making a second one (at the PSP too, and even
 * once the link has closed behind that payment); the keys of a link are its own, apart from any its
 * workspace's callers send.
 */
export async function startCheckout(
  deps: Deps,
  request: { slug: string; ip: string; requestId: string },
  input: CheckoutInput,
  io: { write: CheckoutWrite; once: CheckoutOnce },
) {
  const found = await linkForPage(deps, request.slug);
  if (!found) throw notFound('Payment link');
  const { link } = found;
  const owner = {
    workspaceId: link.workspace_id,
    environment: link.environment,
    scope: `checkout:${link.id}`,
  };
  const payment = await io.once(owner, () => {
    if (found.refusal) throw refused(found.refusal);
    return chargeFor(deps, request, link, input, (fn) => io.write(owner, fn));
  });
  return {
    ...publicView(payment),
    pix_qr_code: payment.pix_qr_code!,
    qr_code_png: qrPngDataUrl(payment.pix_qr_code!),
    expires_at: payment.expires_at!,
  };
}

/** The buyer's charge on an open link, with its checkout record in the same transaction. */
async function chargeFor(
  deps: Deps,
  request: { ip: string; requestId: string },
  link: LinkRow,
  input: CheckoutInput,
  write: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
): Promise<PaymentView> {
  const amount = amountFor(link, input.amount_minor);
  const name = input.payer.name.trim();
  if (name === '') {
    throw invalidRequest('payer.name is required.', [{ field: 'body.payer.name', issue: 'empty' }]);
  }
  const document = documentOf(input.payer.document);
  if (!document) {
    throw invalidRequest('payer.document must be a valid CPF or CNPJ.', [
      { field: 'body.payer.document', issue: 'not a valid CPF or CNPJ' },
    ]);
  }
  const ctx: Ctx = { ...systemContext(deps, linkCaller(link)), ip: request.ip, requestId: request.requestId };
  return createCharge(
    ctx,
    {
      amount_minor: formatAmount(amount),
      currency: link.currency,
      description: link.title ?? link.description ?? undefined,
      expires_in_seconds: chargeSeconds(link, deps.clock.now()),
      payer: { name, document },
      metadata: link.metadata,
    },
    write,
    (tx, charge) => recordCheckout(tx, deps, link, charge, { name, document }, input.amount_minor),
  );
}

/**
 * The checkout record, in the charge's transaction. The link's row is share-locked first, so a
 * concurrent split replacement (which takes it for update) lands wholly before or wholly after, and
 * the link is checked again: one made inactive meanwhile takes no payment (the charge rolls back).
 */
async function recordCheckout(
  tx: Tx,
  deps: Deps,
  link: LinkRow,
  payment: PaymentView,
  payer: { name: string; document: string },
  askedAmount: string | undefined,
): Promise<void> {
  const current = await findLink(tx, scopeOf(link), link.id, 'share');
  const at = new Date(payment.created_at);
  if (!current) throw notFound('Payment link');
  const status = linkStatus(current, at);
  if (status !== 'active') throw closed(status);
  // The link's amount rules may have changed since the charge was priced: they hold at commit.
  if (amountFor(current, askedAmount) !== BigInt(payment.amount_minor)) {
    throw new AppError('invalid_amount', 'The payment link changed while paying; start again.');
  }
  const splits = await listSplitRows(tx, link.workspace_id, link.id);
  await insertCheckout(tx, {
    workspace_id: link.workspace_id,
    payment_id: payment.id,
    environment: link.environment,
    payment_link_id: link.id,
    splits: splits.map(({ party_id, share_bps, recipient_label }) => ({
      party_id,
      share_bps,
      recipient_label,
    })),
    payer_name: payer.name,
    payer_document_sealed: deps.sealer.seal(payer.document),
    payer_document_hash: deps.sealer.keyedHash(PAYER_DOCUMENT_HASH, payer.document),
    created_at: at,
  });
}

const publicView = (payment: PaymentView): PublicPaymentView => ({
  id: payment.id,
  status: payment.status,
  amount_minor: payment.amount_minor,
  currency: payment.currency,
});

/** A checkout payment of this link, status and amount only: anyone holding the page may ask. */
export async function checkoutStatus(
  deps: Deps,
  input: { slug: string; id: string },
): Promise<PublicPaymentView> {
  const link = await findLinkBySlug(deps.db, input.slug);
  if (!link) throw notFound('Payment');
  const checkout = await findCheckout(deps.db, scopeOf(link), input.id);
  if (checkout?.payment_link_id !== link.id) throw notFound('Payment');
  const payment = await findPayment(deps.db, scopeOf(link), input.id);
  if (!payment) throw notFound('Payment');
  return {
    id: payment.id,
    status: payment.status,
    amount_minor: formatAmount(payment.amount_minor),
    currency: payment.currency,
  };
}
