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
import { type Ctx, systemContext } from '../../platform/request-context.ts';
import type { PaymentView } from '../payments/schemas.ts';
import { findPayment } from '../payments/service.ts';
import { createCharge, qrPngDataUrl } from '../pix/service.ts';
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

/** The link a slug names and whether it takes payments now; undefined for an unknown slug. */
export async function linkForPage(
  deps: Deps,
  slug: string,
): Promise<{ link: LinkRow; status: LinkStatus } | undefined> {
  const link = await findLinkBySlug(deps.db, slug);
  return link && { link, status: linkStatus(link, deps.clock.now()) };
}

async function openLink(deps: Deps, slug: string): Promise<LinkRow> {
  const found = await linkForPage(deps, slug);
  if (!found) throw notFound('Payment link');
  if (found.status !== 'active') throw closed(found.status);
  return found.link;
}

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
 * expiry; a link too close to it (under the one-minute minimum of a charge) takes no checkout.
 */
function chargeSeconds(link: LinkRow, now: Date): number {
  if (!link.expires_at) return CHECKOUT_CHARGE_SECONDS;
  const left = Math.floor((link.expires_at.getTime() - now.getTime()) / 1000);
  if (left < 60) throw new AppError('invalid_state', 'This payment link expires too soon to take a payment.');
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

export async function startCheckout(
  deps: Deps,
  request: { slug: string; ip: string; requestId: string },
  input: CheckoutInput,
) {
  const link = await openLink(deps, request.slug);
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
  const payment = await createCharge(
    ctx,
    {
      amount_minor: formatAmount(amount),
      currency: link.currency,
      description: link.title ?? link.description ?? undefined,
      expires_in_seconds: chargeSeconds(link, deps.clock.now()),
      payer: { name, document },
      metadata: link.metadata,
    },
    (fn) => deps.db.transaction(fn),
    (tx, charge) => recordCheckout(tx, deps, link, charge, { name, document }, input.amount_minor),
  );
  return {
    ...publicView(payment),
    pix_qr_code: payment.pix_qr_code!,
    qr_code_png: qrPngDataUrl(payment.pix_qr_code!),
    expires_at: payment.expires_at!,
  };
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
