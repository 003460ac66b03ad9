/**
 * The dashboard whitelist: the destinations an API key may send crypto to (spec, Crypto: "with an API
 * key the destination must be a wallet registered in the dashboard whitelist, whatever the amount").
 * Per workspace and environment; an EVM address counts on the network it was whitelisted on only.
 */
import type { Queryable, Tx } from '../../db/types.ts';
import { auditAction } from '../../platform/audit.ts';
import type { Environment } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { iso } from '../../platform/schema.ts';
import { checkAddress, checkNetwork } from './addresses.ts';
import {
  deleteWhitelistRow,
  insertWhitelistRow,
  listWhitelistRows,
  type WhitelistRow,
  whitelistHas,
} from './repo.ts';

export const whitelistView = (row: WhitelistRow) => ({
  id: row.id,
  workspace_id: row.workspace_id,
  environment: row.environment,
  network: row.network,
  address: row.address,
  label: row.label,
  created_at: iso(row.created_at),
});

const tenantOf = (ctx: Ctx) => ({ workspaceId: ctx.caller.workspaceId, environment: ctx.caller.environment });

export async function addToWhitelist(
  tx: Tx,
  ctx: Ctx,
  input: { network: string; address: string; label?: string },
) {
  const network = checkNetwork(input.network);
  const address = checkAddress(network, input.address);
  const row = await insertWhitelistRow(tx, tenantOf(ctx), {
    id: newId(),
    network,
    address,
    label: input.label?.trim() || null,
    createdBy: ctx.caller.userId ?? null,
    at: ctx.deps.clock.now(),
  });
  if (!row) throw new AppError('conflict', `${address} is already whitelisted on ${network}.`);
  await auditAction(
    tx,
    ctx,
    'whitelist.added',
    { type: 'whitelist_address', id: row.id },
    { network, address },
  );
  return whitelistView(row);
}

export async function listWhitelist(
  q: Queryable,
  ctx: Ctx,
  query: { limit?: number; cursor?: string; network?: string },
) {
  if (query.network !== undefined) checkNetwork(query.network, 'querystring.network');
  return (await listWhitelistRows(q, tenantOf(ctx), query)).map(whitelistView);
}

export async function removeFromWhitelist(tx: Tx, ctx: Ctx, input: { id: string }) {
  const row = await deleteWhitelistRow(tx, tenantOf(ctx), input.id);
  if (!row) throw notFound('Whitelist entry');
  await auditAction(
    tx,
    ctx,
    'whitelist.removed',
    { type: 'whitelist_address', id: row.id },
    { network: row.network, address: row.address },
  );
  return whitelistView(row);
}

/** Whether `address` (normalised) is whitelisted on `network` by the workspace, in the environment. */
export function isWhitelisted(
  q: Queryable,
  scope: { workspaceId: string; environment: Environment },
  network: string,
  address: string,
): Promise<boolean> {
  return whitelistHas(q, scope, network, address);
}
