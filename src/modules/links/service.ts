/**
 * Payment links: links and their splits for the workspace's API, the checkout payment list, and what
 * the PIX module asks when a checkout charge is paid (the split frozen with it). The public checkout
 * itself is in checkout.ts; it is the links module's own and not part of this public face.
 */
import { randomInt } from 'node:crypto';
import type { Queryable, Tx } from '../../db/types.ts';
import { formatAmount, parseAmount } from '../../ledger/currency.ts';
import { auditAction } from '../../platform/audit.ts';
import type { Caller, Environment } from '../../platform/context.ts';
import { AppError, type ErrorDetail, invalidRequest, notFound } from '../../platform/errors.ts';
import { isUuid, newId } from '../../platform/ids.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { MAX_BR_CODE_AMOUNT_MINOR } from '../../providers/pix/brcode.ts';
import { parseDocument } from '../../providers/pix/keys.ts';
import { owningParty, partyFilter, requestedParty } from '../parties/service.ts';
import type { PaymentView } from '../payments/schemas.ts';
import { paymentView } from '../payments/service.ts';
import { pixCurrencyOf } from '../pix/service.ts';
import {
  ACCENTED,
  claimSlug,
  findCheckout,
  findLink,
  insertLink,
  type LinkRow,
  type LinkScope,
  listCheckoutRows,
  listLinkRows,
  listSplitRows,
  replaceSplitRows,
  type SplitRow,
  UNACCENTED,
  updateLinkRow,
} from './repo.ts';
import type {
  CheckoutListInput,
  CreateLinkInput,
  LinkStatus,
  PaymentLinkView,
  SplitsInput,
  SplitView,
  UpdateLinkInput,
} from './schemas.ts';
import { FULL_SHARE_BPS, MAX_SPLITS, type Part, splitNet } from './split-math.ts';

export { type Part, type Share, splitNet } from './split-math.ts';

/** A link past expires_at reads expired, whatever its stored status. */
export const linkStatus = (link: LinkRow, now: Date): LinkStatus =>
  link.expires_at && link.expires_at <= now ? 'expired' : link.status;

/** The link as the API shows it; `baseUrl` (PUBLIC_BASE_URL) makes its page's `url` absolute. */
export function linkView(link: LinkRow, now: Date, baseUrl: string): PaymentLinkView {
  return {
    id: link.id,
    workspace_id: link.workspace_id,
    environment: link.environment,
    party_id: link.party_id,
    amount_minor: link.amount_minor === null ? null : formatAmount(link.amount_minor),
    currency: link.currency,
    allow_custom_amount: link.allow_custom_amount,
    status: linkStatus(link, now),
    slug: link.slug,
    url: `${baseUrl}/pay/${link.slug}`,
    title: link.title,
    description: link.description,
    design: link.design,
    expires_at: iso(link.expires_at),
    created_at: iso(link.created_at),
    metadata: link.metadata ?? {},
  };
}

const scopeOf = (caller: Caller): LinkScope => ({
  workspaceId: caller.workspaceId,
  environment: caller.environment,
  partyId: caller.partyId,
});

async function linkOf(q: Queryable, ctx: Ctx, id: string, lock?: 'update'): Promise<LinkRow> {
  const link = await findLink(q, scopeOf(ctx.caller), id, lock);
  if (!link) throw notFound('Payment link');
  return link;
}

/** The link's amount: a positive BRL amount a BR Code can carry. */
function linkAmount(wire: string | undefined, field = 'body.amount_minor'): bigint | null {
  if (wire === undefined) return null;
  const amount = parseAmount(wire, { field });
  if (amount > MAX_BR_CODE_AMOUNT_MINOR) {
    throw new AppError(
      'invalid_amount',
      `A PIX checkout is at most ${MAX_BR_CODE_AMOUNT_MINOR} minor units.`,
      [{ field, issue: `must be at most ${MAX_BR_CODE_AMOUNT_MINOR}` }],
    );
  }
  return amount;
}

const SLUG_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** 10 characters of [a-z0-9] (randomInt has no modulo bias): 36^10 ≈ 3.7 × 10^15 slugs. */
const randomSlug = () => Array.from({ length: 10 }, () => SLUG_ALPHABET[randomInt(36)]).join('');

export async function createLink(tx: Tx, ctx: Ctx, input: CreateLinkInput): Promise<PaymentLinkView> {
  const { caller, deps } = ctx;
  const now = deps.clock.now();
  const amount = linkAmount(input.amount_minor);
  const allowCustom = input.allow_custom_amount ?? false;
  if (amount === null && !allowCustom) {
    throw new AppError('invalid_amount', 'Give a fixed amount_minor, or allow_custom_amount: true.', [
      { field: 'body.amount_minor', issue: 'required unless allow_custom_amount is true' },
    ]);
  }
  const currency = pixCurrencyOf(input.currency, 'Payment links take PIX, in BRL.');
  const expiresAt = input.expires_at === undefined ? null : new Date(input.expires_at);
  if (expiresAt && expiresAt <= now) {
    throw invalidRequest('expires_at must be in the future.', [
      { field: 'body.expires_at', issue: 'must be in the future' },
    ]);
  }
  const partyId = await owningParty(tx, caller, input.party_id);
  const id = newId();
  const slug = await claimLinkSlug(tx, input.slug, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    linkId: id,
    at: now,
  });
  const link = await insertLink(tx, {
    workspace_id: caller.workspaceId,
    id,
    environment: caller.environment,
    party_id: partyId,
    amount_minor: amount,
    currency,
    allow_custom_amount: allowCustom,
    status: 'active',
    slug,
    title: input.title ?? null,
    description: input.description ?? null,
    design: input.design ?? {},
    expires_at: expiresAt,
    metadata: input.metadata ?? {},
    created_at: now,
  });
  await auditAction(tx, ctx, 'payment_link.created', { type: 'payment_link', id }, { slug });
  return linkView(link, now, ctx.deps.config.publicBaseUrl);
}

/** The asked slug (409 slug_taken when any workspace holds it), or a fresh random one. */
async function claimLinkSlug(
  tx: Tx,
  asked: string | undefined,
  owner: { workspaceId: string; environment: Environment; linkId: string; at: Date },
): Promise<string> {
  if (asked !== undefined) {
    if (await claimSlug(tx, asked, owner)) return asked;
    throw new AppError('slug_taken', `The slug "${asked}" is taken; choose another.`, [
      { field: 'body.slug', issue: 'taken' },
    ]);
  }
  // 36^10 slugs: a collision is a freak, and a second draw settles it.
  for (let attempt = 0; attempt < 5; attempt++) {
    const slug = randomSlug();
    if (await claimSlug(tx, slug, owner)) return slug;
  }
  throw new Error('could not draw a free slug');
}

export async function getLink(q: Queryable, ctx: Ctx, input: { id: string }): Promise<PaymentLinkView> {
  return linkView(await linkOf(q, ctx, input.id), ctx.deps.clock.now(), ctx.deps.config.publicBaseUrl);
}

export async function listLinks(
  q: Queryable,
  ctx: Ctx,
  query: { limit?: number; cursor?: string; party_id?: string },
): Promise<PaymentLinkView[]> {
  const { caller } = ctx;
  const rows = await listLinkRows(q, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    partyId: await partyFilter(q, caller, query.party_id),
    limit: query.limit,
    cursor: query.cursor,
  });
  const now = ctx.deps.clock.now();
  return rows.map((row) => linkView(row, now, ctx.deps.config.publicBaseUrl));
}

export async function updateLink(
  tx: Tx,
  ctx: Ctx,
  input: UpdateLinkInput & { id: string },
): Promise<PaymentLinkView> {
  const { id, ...patch } = input;
  const link = await linkOf(tx, ctx, id, 'update');
  if (patch.allow_custom_amount === false && link.amount_minor === null) {
    throw new AppError('invalid_amount', 'An open-amount link has no fixed amount to fall back to.', [
      { field: 'body.allow_custom_amount', issue: 'this link has no amount_minor' },
    ]);
  }
  const now = ctx.deps.clock.now();
  const updated = await updateLinkRow(tx, link, patch, now);
  await auditAction(
    tx,
    ctx,
    'payment_link.updated',
    { type: 'payment_link', id },
    {
      fields: Object.keys(patch),
    },
  );
  return linkView(updated, now, ctx.deps.config.publicBaseUrl);
}

const splitView = (row: SplitRow): SplitView => ({
  id: row.id,
  payment_link_id: row.payment_link_id,
  party_id: row.party_id,
  recipient_label: row.recipient_label,
  share_bps: row.share_bps,
});

export async function getSplits(q: Queryable, ctx: Ctx, input: { id: string }): Promise<SplitView[]> {
  const link = await linkOf(q, ctx, input.id);
  return (await listSplitRows(q, link.workspace_id, link.id)).map(splitView);
}

const invalidSplit = (message: string, details: ErrorDetail[]) =>
  new AppError('invalid_split', message, details);

/** The shape rules of a split set (API.md): ≤ 20, each 1..10000 bps, total ≤ 10000, distinct parties. */
export function checkSplitShape(splits: SplitsInput['splits']): void {
  if (splits.length > MAX_SPLITS) {
    throw invalidSplit(`At most ${MAX_SPLITS} splits.`, [
      { field: 'body.splits', issue: `more than ${MAX_SPLITS}` },
    ]);
  }
  const seen = new Set<string>();
  let total = 0;
  splits.forEach((split, i) => {
    if (split.share_bps < 1 || split.share_bps > FULL_SHARE_BPS) {
      throw invalidSplit('Each share_bps is 1 to 10000.', [
        { field: `body.splits.${i}.share_bps`, issue: 'must be 1..10000' },
      ]);
    }
    const party = split.party_id.toLowerCase();
    if (seen.has(party)) {
      throw invalidSplit('Each party appears once.', [
        { field: `body.splits.${i}.party_id`, issue: 'repeated' },
      ]);
    }
    seen.add(party);
    total += split.share_bps;
  });
  if (total > FULL_SHARE_BPS) {
    throw invalidSplit(`The shares add up to ${total} bps, more than 10000.`, [
      { field: 'body.splits', issue: 'total share_bps above 10000' },
    ]);
  }
}

/** Replaces the link's whole split set in one statement pair, under the link's row lock. */
export async function putSplits(tx: Tx, ctx: Ctx, input: SplitsInput & { id: string }): Promise<SplitView[]> {
  const { caller } = ctx;
  const link = await linkOf(tx, ctx, input.id, 'update');
  // A party-scoped key names no party but its own, here as anywhere (403 before the shape).
  for (const split of input.splits) requestedParty(caller, split.party_id);
  checkSplitShape(input.splits);
  const rows: SplitRow[] = [];
  for (const [i, split] of input.splits.entries()) {
    rows.push({
      id: newId(),
      payment_link_id: link.id,
      party_id: await workspaceParty(tx, caller, split.party_id, i),
      recipient_label: split.recipient_label ?? null,
      share_bps: split.share_bps,
    });
  }
  await replaceSplitRows(tx, link.workspace_id, link.id, rows);
  await auditAction(
    tx,
    ctx,
    'payment_link.splits_replaced',
    { type: 'payment_link', id: link.id },
    {
      splits: rows.map(({ party_id, share_bps }) => ({ party_id, share_bps })),
    },
  );
  return rows.map(splitView);
}

/** A recipient must be a party of the workspace: anything else is 422 invalid_split, not a 404. */
async function workspaceParty(tx: Tx, caller: Caller, partyId: string, i: number): Promise<string> {
  try {
    return await owningParty(tx, caller, partyId);
  } catch (error) {
    if (error instanceof AppError && error.code === 'not_found') {
      throw invalidSplit('Every recipient must be a party of this workspace.', [
        { field: `body.splits.${i}.party_id`, issue: 'not a party of this workspace' },
      ]);
    }
    throw error;
  }
}

/** Folds text for the accent- and case-insensitive payer name search (the repo folds names alike). */
export function foldText(text: string): string {
  const map = new Map([...ACCENTED].map((char, i) => [char, UNACCENTED[i]!]));
  return [...text]
    .map((char) => map.get(char) ?? char)
    .join('')
    .toLowerCase();
}

export const PAYER_DOCUMENT_HASH = 'payer-document';

/** A CPF or CNPJ in any punctuation, as the one form it is hashed in; undefined when not one. */
export function documentOf(text: string): string | undefined {
  return parseDocument(text.replace(/[^0-9A-Za-z]/g, '').toUpperCase())?.value;
}

function parseCursor(cursor: string | undefined) {
  if (cursor === undefined) return undefined;
  const [time, id] = cursor.split('|') as [string, string];
  const at = new Date(time);
  if (Number.isNaN(at.getTime()) || !isUuid(id)) {
    throw invalidRequest('cursor is not <created_at>|<id> of a row.', [
      { field: 'querystring.cursor', issue: 'malformed' },
    ]);
  }
  return { at, id: id.toLowerCase() };
}

/** The spec's checkout payment list: data is {items, next_cursor}, newest first. */
export async function listCheckoutPayments(q: Queryable, ctx: Ctx, query: CheckoutListInput) {
  const { caller, deps } = ctx;
  const limit = query.limit ?? 25;
  const search = query.search?.trim();
  const document = search ? documentOf(search) : undefined;
  const rows = await listCheckoutRows(q, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    partyId: await partyFilter(q, caller, query.party_id),
    status: query.status,
    paymentLinkId: query.payment_link_id,
    documentHash: document ? deps.sealer.keyedHash(PAYER_DOCUMENT_HASH, document) : undefined,
    nameText: search && !document ? foldText(search) : undefined,
    after: parseCursor(query.cursor),
    limit: limit + 1,
  });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    items: page.map((row) => ({ ...paymentView(row), payment_link_id: row.payment_link_id })),
    next_cursor: rows.length > limit && last ? `${iso(last.created_at)}|${last.id}` : null,
  };
}

export interface CheckoutSettlement {
  paymentLinkId: string;
  parts: Part[];
}

/**
 * Asked by the PIX module when a charge is paid: how its net amount is shared, by the split frozen
 * with the charge when it was created (never the link's current splits). Undefined for a charge
 * that was not started on a payment link: the PIX module then credits the net to its party.
 */
export async function checkoutSettlement(
  q: Queryable,
  payment: { workspaceId: string; environment: Environment; id: string; partyId: string; net: bigint },
): Promise<CheckoutSettlement | undefined> {
  const checkout = await findCheckout(q, payment, payment.id);
  if (!checkout) return undefined;
  return {
    paymentLinkId: checkout.payment_link_id,
    parts: splitNet(payment.net, checkout.splits, payment.partyId),
  };
}

/** payment_link.payment.completed, beside payment.completed, in the settlement's transaction. */
export async function announceCheckoutPaid(
  tx: Tx,
  payment: PaymentView,
  settlement: CheckoutSettlement,
  at: Date,
): Promise<void> {
  await emitEvent(tx, {
    workspaceId: payment.workspace_id,
    environment: payment.environment,
    type: 'payment_link.payment.completed',
    object: {
      ...payment,
      payment_link_id: settlement.paymentLinkId,
      splits: settlement.parts.map((part) => ({
        party_id: part.partyId,
        amount_minor: formatAmount(part.amount),
      })),
    },
    at,
  });
}
