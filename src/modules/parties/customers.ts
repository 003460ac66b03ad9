/**
 * Customers: the parties of kind person or business. Create, list and update are for workspace-level
 * callers (the routes say so); a party-scoped key may read only its own party. Documents are sealed
 * with a keyed hash beside them, and the view opens them again.
 */
import type { Queryable, Tx } from '../../db/types.ts';
import { auditAction } from '../../platform/audit.ts';
import type { Environment } from '../../platform/context.ts';
import { invalidRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import type { Sealer } from '../../platform/secrets.ts';
import { maskDocument } from '../../providers/pix/keys.ts';
import { sealDocument, searchDocumentHash } from './documents.ts';
import * as repo from './repo.ts';
import type { CustomerCreateInput, CustomerListInput, CustomerPatchInput, CustomerView } from './schemas.ts';

/** Letters NFKD does not take apart into a base letter and a mark. */
const FOLDED_LETTERS: Record<string, string> = {
  ł: 'l',
  Ł: 'L',
  ø: 'o',
  Ø: 'O',
  ß: 'ss',
  æ: 'ae',
  Æ: 'AE',
  đ: 'd',
  Đ: 'D',
};

/** Lower case without accents (compatibility forms folded too): what search compares, on both sides. */
export const foldText = (text: string) =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[łŁøØßæÆđĐ]/g, (letter) => FOLDED_LETTERS[letter] ?? letter)
    .toLowerCase()
    .trim();

/**
 * The customer as events carry it: the outbox keeps payloads as plain JSON (and webhooks send them
 * on), so the document travels masked to its last two characters; GET returns it whole.
 */
const eventObject = (view: CustomerView): CustomerView => ({
  ...view,
  document_number: view.document_number === null ? null : maskDocument(view.document_number),
});

const searchTextOf = (fields: (string | null | undefined)[]) =>
  fields
    .filter((field): field is string => !!field)
    .map(foldText)
    .join('\n');

export function customerView(row: repo.PartyRow, environment: Environment, sealer: Sealer): CustomerView {
  return {
    id: row.id,
    workspace_id: row.workspace_id,
    kind: row.kind as CustomerView['kind'],
    display_name: row.display_name,
    legal_name: row.legal_name,
    document_type: row.document_type,
    document_number: row.document_number_sealed ? sealer.open(row.document_number_sealed) : null,
    email: row.email,
    phone: row.phone,
    country: row.country,
    status: row.status,
    kyc_status: environment === 'live' ? row.kyc_status : row.sandbox_kyc_status,
    external_id: row.external_id,
    payout_mode: row.payout_mode,
    payout_asset: row.payout_asset,
    payout_wallet_address: row.payout_wallet_address,
    payout_wallet_network: row.payout_wallet_network,
    metadata: row.metadata ?? {},
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

export async function createCustomer(tx: Tx, ctx: Ctx, input: CustomerCreateInput): Promise<CustomerView> {
  const { caller, deps } = ctx;
  if (input.document_type !== undefined && input.document_number === undefined) {
    throw invalidRequest('document_type needs document_number.', [
      { field: 'body.document_number', issue: 'required with document_type' },
    ]);
  }
  const document =
    input.document_number === undefined
      ? undefined
      : sealDocument(deps.sealer, input.document_number, input.document_type);
  const at = deps.clock.now();
  const email = input.email?.toLowerCase() ?? null;
  const row = await repo.insertCustomer(tx, {
    id: newId(),
    workspaceId: caller.workspaceId,
    kind: input.kind ?? 'person',
    displayName: input.display_name,
    legalName: input.legal_name ?? null,
    documentType: document?.type ?? input.document_type ?? null,
    documentSealed: document?.sealed ?? null,
    documentHash: document?.hash ?? null,
    email,
    phone: input.phone ?? null,
    country: input.country ?? null,
    externalId: input.external_id ?? null,
    metadata: input.metadata ?? {},
    searchText: searchTextOf([input.display_name, input.legal_name, email, input.external_id]),
    at,
  });
  const view = customerView(row, caller.environment, deps.sealer);
  await emitEvent(tx, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    type: 'customer.created',
    object: eventObject(view),
    at,
  });
  await auditAction(tx, ctx, 'customer.created', { type: 'party', id: row.id });
  return view;
}

/** One customer; a party-scoped key sees only its own party (another one is 404, as if unknown). */
export async function getCustomer(q: Queryable, ctx: Ctx, input: { id: string }): Promise<CustomerView> {
  const { caller, deps } = ctx;
  const row = await repo.findCustomer(q, caller.workspaceId, input.id);
  if (!row || (caller.partyId !== null && caller.partyId !== row.id)) throw notFound('Customer');
  return customerView(row, caller.environment, deps.sealer);
}

export async function listCustomers(
  q: Queryable,
  ctx: Ctx,
  input: CustomerListInput,
): Promise<CustomerView[]> {
  const { caller, deps } = ctx;
  const rows = await repo.listCustomers(
    q,
    {
      workspaceId: caller.workspaceId,
      status: input.status,
      text: input.search === undefined ? undefined : foldText(input.search),
      documentHash: input.search === undefined ? null : searchDocumentHash(deps.sealer, input.search),
    },
    input,
  );
  return rows.map((row) => customerView(row, caller.environment, deps.sealer));
}

export async function updateCustomer(
  tx: Tx,
  ctx: Ctx,
  input: CustomerPatchInput & { id: string },
): Promise<CustomerView> {
  const { caller, deps } = ctx;
  const current = await repo.findCustomer(tx, caller.workspaceId, input.id, { forUpdate: true });
  if (!current) throw notFound('Customer');
  const pick = <T>(value: T | undefined, fallback: T) => (value === undefined ? fallback : value);
  const displayName = pick(input.display_name, current.display_name);
  const email = pick(input.email, current.email)?.toLowerCase() ?? null;
  const externalId = pick(input.external_id, current.external_id);
  const at = deps.clock.now();
  const row = await repo.updateCustomer(tx, caller.workspaceId, current.id, {
    displayName,
    email,
    phone: pick(input.phone, current.phone),
    status: pick(input.status, current.status),
    externalId,
    metadata: pick(input.metadata, current.metadata),
    searchText: searchTextOf([displayName, current.legal_name, email, externalId]),
    at,
  });
  const view = customerView(row, caller.environment, deps.sealer);
  await emitEvent(tx, {
    workspaceId: caller.workspaceId,
    environment: caller.environment,
    type: 'customer.updated',
    object: eventObject(view),
    at,
  });
  const changed = Object.keys(input).filter((key) => key !== 'id');
  await auditAction(tx, ctx, 'customer.updated', { type: 'party', id: row.id }, { changed });
  if (input.status !== undefined && input.status !== current.status) {
    await auditAction(tx, ctx, `customer.${input.status === 'blocked' ? 'blocked' : 'unblocked'}`, {
      type: 'party',
      id: row.id,
    });
  }
  return view;
}
