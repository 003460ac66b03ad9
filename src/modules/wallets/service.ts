/**
 * Wallets: a party's crypto addresses. The public face of the module: the routes' services, and what
 * the crypto module asks (a party's wallets on a network, the custodial wallet of an address, the
 * whitelist).
 */
import type { Queryable, Tx } from '../../db/types.ts';
import type { Caller, Environment } from '../../platform/context.ts';
import { AppError, invalidRequest, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { type Network, networkFamily, networksOfFamily } from '../../providers/chain/networks.ts';
import { owningParty, partyFilter } from '../parties/service.ts';
import { listWalletPayments } from '../payments/service.ts';
import { checkAddress, checkNetwork } from './addresses.ts';
import {
  clearPrimary,
  custodialAddresses,
  findCustodialWalletRow,
  findWalletRow,
  insertWallets,
  listWalletRows,
  partyWalletsOn,
  type WalletRow,
} from './repo.ts';

export { checkAddress, checkNetwork } from './addresses.ts';
export type { WalletRow } from './repo.ts';
export { isWhitelisted } from './whitelist.ts';

export const walletView = (row: WalletRow) => ({
  id: row.id,
  workspace_id: row.workspace_id,
  party_id: row.party_id,
  environment: row.environment,
  network: row.network,
  address: row.address,
  wallet_name: row.wallet_name,
  is_primary: row.is_primary,
  provider_ref: row.provider_ref,
  watch_only: row.provider_ref === null,
  created_at: iso(row.created_at),
});

/** An alias pair of the wire (`wallet_name` / `walletName`): either, or both when they agree. */
function alias<T>(snake: T | undefined, camel: T | undefined, field: string): T | undefined {
  if (snake !== undefined && camel !== undefined && snake !== camel) {
    throw invalidRequest(`${field} was sent twice with different values.`, [
      { field, issue: 'sent under both spellings with different values' },
    ]);
  }
  return snake ?? camel;
}

export interface CreateWalletInput {
  network: string;
  address?: string;
  wallet_name?: string;
  walletName?: string;
  is_primary?: boolean;
  isPrimary?: boolean;
  party_id?: string;
}

/** Runs one transaction: the route's request.write, so an Idempotency-Key is honoured. */
export type Write = <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>;

/**
 * Provisions a wallet: the key-management provider makes a key pair (provider_ref is its key), or,
 * when the caller brings an address, a watch-only wallet with no key. An EVM address is registered on
 * every EVM network in one transaction; the answer is the row of the asked network.
 *
 * The key is made before the transaction (a provider is never called inside one): a key left unused
 * by a failed or replayed request is harmless, an address without its key would not be.
 */
export async function createWallet(ctx: Ctx, input: CreateWalletInput, write: Write) {
  const { caller, deps } = ctx;
  const network = checkNetwork(input.network);
  const walletName = alias(input.wallet_name, input.walletName, 'body.wallet_name') ?? null;
  const isPrimary = alias(input.is_primary, input.isPrimary, 'body.is_primary') ?? false;
  const supplied = input.address === undefined ? undefined : checkAddress(network, input.address);
  // The party is checked before a key is made for it.
  await owningParty(deps.db, caller, input.party_id);
  const family = networkFamily(network);
  const key =
    supplied === undefined
      ? await deps.providers.get('kms', caller.environment).createKey(family)
      : undefined;
  const address = supplied ?? key!.address;
  return write(async (tx) => {
    const partyId = await owningParty(tx, caller, input.party_id);
    const scope = { workspaceId: caller.workspaceId, environment: caller.environment, partyId };
    // One workspace's wallet creations run one at a time: the clash check and the primary swap read
    // before they write.
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
      `wallets|${caller.workspaceId}|${caller.environment}`,
    ]);
    if (isPrimary) await clearPrimary(tx, scope, network);
    const at = deps.clock.now();
    const { inserted, clashes } = await insertWallets(
      tx,
      scope,
      { address, walletName, providerRef: key?.keyRef ?? null, at },
      networksOfFamily(family).map((each) => ({
        id: newId(),
        network: each,
        is_primary: isPrimary && each === network,
      })),
    );
    if (clashes.length > 0) {
      throw new AppError(
        'conflict',
        `This address is already a wallet of the workspace on ${clashes.join(', ')}.`,
      );
    }
    for (const row of inserted) {
      await emitEvent(tx, {
        workspaceId: row.workspace_id,
        environment: row.environment,
        type: 'wallet.created',
        object: walletView(row),
        at,
      });
    }
    return walletView(inserted.find((row) => row.network === network)!);
  });
}

const scopeOf = (caller: Caller) => ({
  workspaceId: caller.workspaceId,
  environment: caller.environment,
  partyId: caller.partyId,
});

export async function getWallet(q: Queryable, ctx: Ctx, input: { id: string }) {
  const row = await findWalletRow(q, scopeOf(ctx.caller), input.id);
  if (!row) throw notFound('Wallet');
  return walletView(row);
}

export async function listWallets(
  q: Queryable,
  ctx: Ctx,
  query: { limit?: number; cursor?: string; party_id?: string; network?: string },
) {
  const { caller } = ctx;
  const partyId = await partyFilter(q, caller, query.party_id);
  const rows = await listWalletRows(q, { ...scopeOf(caller), partyId }, query);
  return rows.map(walletView);
}

/** A wallet's payments (sends from it, deposits into it), newest first. */
export async function listWalletTransactions(
  q: Queryable,
  ctx: Ctx,
  input: { id: string; limit?: number; cursor?: string },
) {
  const scope = scopeOf(ctx.caller);
  const wallet = await findWalletRow(q, scope, input.id);
  if (!wallet) throw notFound('Wallet');
  return listWalletPayments(q, scope, { walletId: wallet.id, limit: input.limit, cursor: input.cursor });
}

/** The party's wallets on a network (primary first): where a crypto send may leave from. */
export function walletsOfParty(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment; partyId: string },
  network: Network,
): Promise<WalletRow[]> {
  return partyWalletsOn(q, scope, network);
}

/** The wallet whose key Lastro holds at an address, whichever workspace it is in (deposits). */
export const findCustodialWallet = findCustodialWalletRow;

/** Every custodial address of an environment, for the deposit watcher. */
export const watchedAddresses = custodialAddresses;
