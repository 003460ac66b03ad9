/**
 * Deposits: stablecoins arriving at a wallet whose key Lastro holds. One path credits them, whoever
 * saw them first: the deposit watcher (polling the chain) and the sandbox helper both call
 * recordDeposit, which credits each incoming transfer once, keyed by (network, tx hash, log index).
 */
import { createHash } from 'node:crypto';
import type { Tx } from '../../db/types.ts';
import { partyAccount, systemAccount } from '../../ledger/accounts.ts';
import { currencyOf, parseAmount } from '../../ledger/currency.ts';
import { postJournal } from '../../ledger/ledger.ts';
import type { Deps, Environment } from '../../platform/context.ts';
import { AppError, notFound } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import {
  dueSetAside,
  eachApart,
  openSetAside,
  SetAsideError,
  type SetAsideFailure,
} from '../../platform/set-aside.ts';
import { validateAddress } from '../../providers/chain/addresses.ts';
import { type Network, type Stablecoin, tokenDecimals } from '../../providers/chain/networks.ts';
import type { IncomingTransfer, WatchedAddress } from '../../providers/chain/provider.ts';
import type { PaymentView } from '../payments/schemas.ts';
import { createPayment, findPayment, paymentView } from '../payments/service.ts';
import { findCustodialWallet, getWallet, type Write, watchedAddresses } from '../wallets/service.ts';
import { advanceWatchCursor, claimDeposit, depositPaymentId, watchCursor } from './repo.ts';

export interface RecordedDeposit {
  payment: PaymentView;
  /** False when the transfer had been credited before (the payment is that first credit). */
  created: boolean;
}

/**
 * Credits an incoming transfer to the party of the custodial wallet it reached, once: a completed
 * crypto_deposit payment (payment.completed) and its journal, the workspace's custody on that network
 * → the party's available balance. Undefined when the address is none of ours, or the amount is below
 * the ledger's scale (dust of an 18-decimal token).
 */
export async function recordDeposit(
  tx: Tx,
  environment: Environment,
  incoming: IncomingTransfer,
  at: Date,
  workspaceId: string | null = null,
): Promise<RecordedDeposit | undefined> {
  const to = validateAddress(incoming.network, incoming.toAddress);
  if (!to.ok || incoming.amountMinor <= 0n) return undefined;
  const wallet = await findCustodialWallet(tx, environment, incoming.network, to.address, workspaceId);
  if (!wallet) return undefined;
  const scope = { workspaceId: wallet.workspace_id, environment };
  const key = { ...scope, network: incoming.network, txHash: incoming.txHash, logIndex: incoming.logIndex };
  const paymentId = newId();
  const claimed = await claimDeposit(tx, {
    ...key,
    walletId: wallet.id,
    paymentId,
    confirmedAt: incoming.confirmedAt,
  });
  if (!claimed) {
    const earlier = await findPayment(tx, scope, (await depositPaymentId(tx, key))!);
    return { payment: paymentView(earlier!), created: false };
  }
  const currency = incoming.currency;
  await postDepositJournal(
    tx,
    { environment, workspaceId: wallet.workspace_id, partyId: wallet.party_id },
    {
      paymentId,
      network: incoming.network,
      currency,
      amountMinor: incoming.amountMinor,
      at,
    },
  );
  const payment = await createPayment(
    tx,
    {
      id: paymentId,
      workspace_id: wallet.workspace_id,
      environment,
      party_id: wallet.party_id,
      kind: 'crypto_deposit',
      status: 'completed',
      amount_minor: incoming.amountMinor,
      currency,
      network: incoming.network,
      tx_hash: incoming.txHash,
      from_address: incoming.fromAddress,
      to_address: to.address,
      wallet_id: wallet.id,
      description: `${currency} received on ${incoming.network}`,
      counterparty: {
        address: incoming.fromAddress,
        network: incoming.network,
        log_index: incoming.logIndex,
      },
    },
    { at },
  );
  return { payment, created: true };
}

/** The deposit's journal: the workspace's custody on the network → the party's available balance. */
async function postDepositJournal(
  tx: Tx,
  owner: { environment: Environment; workspaceId: string; partyId: string },
  deposit: { paymentId: string; network: string; currency: Stablecoin; amountMinor: bigint; at: Date },
) {
  const { environment, workspaceId, partyId } = owner;
  await postJournal(tx, {
    workspaceId,
    environment,
    referenceType: 'payment',
    referenceId: deposit.paymentId,
    at: deposit.at,
    postings: [
      {
        account: systemAccount.cryptoCustody(workspaceId, environment, deposit.network, deposit.currency),
        direction: 'debit',
        amount: deposit.amountMinor,
      },
      {
        account: partyAccount(workspaceId, environment, partyId, deposit.currency),
        direction: 'credit',
        amount: deposit.amountMinor,
      },
    ],
  });
}

/** Where the deposit watcher sets aside a transfer it cannot credit (set_aside_items.source). */
export const DEPOSIT_WATCHER = 'crypto-deposit-watcher';

/**
 * One round of the deposit watcher: asks each environment's chain for transfers into our custodial
 * addresses confirmed since the cursor, credits each (once), and moves the cursor to the newest
 * confirmation seen. The cursor is inclusive, so a transfer confirmed at the cursor itself is asked
 * for again and found already credited. A transfer that cannot be credited (the ledger refuses it)
 * is set aside and the cursor still moves: it is retried on its own backoff, never in front of the
 * other tenants' deposits; the round then throws SetAsideError naming it.
 */
export async function watchDeposits(deps: Deps): Promise<number> {
  let credited = 0;
  const apart: SetAsideFailure[] = [];
  for (const environment of ['sandbox', 'live'] as const) {
    if (!deps.providers.has('chain', environment)) continue;
    const addresses = (await watchedAddresses(deps.db, environment)) as WatchedAddress[];
    if (addresses.length === 0) continue;
    const chain = deps.providers.get('chain', environment);
    // A chain with its own block cursor moves it once everything it read is credited or set aside.
    if (chain.scanIncoming) {
      const scan = await chain.scanIncoming(addresses);
      credited += await recordAll(deps, environment, scan.transfers, apart);
      await scan.commit();
      continue;
    }
    const since = (await watchCursor(deps.db, environment)) ?? new Date(0);
    const incoming = await chain.listIncoming(addresses, since);
    credited += await recordAll(deps, environment, incoming, apart);
    const newest = incoming.at(-1)?.confirmedAt;
    if (newest && newest > since) await advanceWatchCursor(deps.db, environment, newest);
  }
  credited += await retrySetAside(deps, apart);
  if (apart.length > 0) throw new SetAsideError(DEPOSIT_WATCHER, apart);
  return credited;
}

const depositKeyOf = (environment: Environment, transfer: IncomingTransfer) =>
  `${environment}:${transfer.network}:${transfer.txHash}:${transfer.logIndex}`;

/** Credits each transfer in its own transaction; one set aside before is left to its retry. */
async function recordAll(
  deps: Deps,
  environment: Environment,
  incoming: IncomingTransfer[],
  apart: SetAsideFailure[],
): Promise<number> {
  const waiting = await openSetAside(
    deps.db,
    DEPOSIT_WATCHER,
    incoming.map((transfer) => depositKeyOf(environment, transfer)),
  );
  let credited = 0;
  const failures = await eachApart(
    deps.db,
    DEPOSIT_WATCHER,
    incoming.filter((transfer) => !waiting.has(depositKeyOf(environment, transfer))),
    (transfer) => ({ key: depositKeyOf(environment, transfer), environment, payload: transfer }),
    async (transfer) => {
      const recorded = await deps.db.transaction((tx) =>
        recordDeposit(tx, environment, transfer, deps.clock.now()),
      );
      if (recorded?.created) credited++;
    },
    () => deps.clock.now(),
  );
  apart.push(...failures);
  return credited;
}

/** Transfers set aside earlier whose retry is due: credited now, or set aside again for longer. */
async function retrySetAside(deps: Deps, apart: SetAsideFailure[]): Promise<number> {
  const due = await dueSetAside(deps.db, DEPOSIT_WATCHER, deps.clock.now());
  let credited = 0;
  const failures = await eachApart(
    deps.db,
    DEPOSIT_WATCHER,
    due,
    (row) => ({
      key: row.item_key,
      environment: row.environment ?? undefined,
      payload: JSON.parse(row.payload),
    }),
    async (row) => {
      const saved = JSON.parse(row.payload) as IncomingTransfer & {
        amountMinor: string;
        confirmedAt: string;
      };
      const transfer = {
        ...saved,
        amountMinor: BigInt(saved.amountMinor),
        confirmedAt: new Date(saved.confirmedAt),
      };
      const recorded = await deps.db.transaction((tx) =>
        recordDeposit(tx, row.environment ?? 'live', transfer, deps.clock.now()),
      );
      if (recorded?.created) credited++;
    },
    () => deps.clock.now(),
  );
  apart.push(...failures);
  return credited;
}

/** The helper's key for the sandbox chain: a retry of one Idempotency-Key finds the deposit it made. */
const depositKey = (ctx: Ctx) =>
  ctx.idempotencyKey === undefined
    ? undefined
    : createHash('sha256')
        .update(
          `${ctx.caller.workspaceId}|${ctx.caller.environment}|${ctx.caller.partyId ?? ''}|${ctx.idempotencyKey}`,
        )
        .digest('hex');

/**
 * Sandbox helper: a deposit from outside into a wallet. The sandbox chain makes the transfer (as a
 * sender would) and it is credited through recordDeposit, the watcher's own path, in one
 * transaction; the watcher finds it credited when the chain reports it.
 */
export async function simulateDeposit(
  ctx: Ctx,
  input: { wallet_id: string; currency: string; amount_minor: string },
  write: Write,
): Promise<PaymentView> {
  const { caller, deps } = ctx;
  if (caller.environment !== 'sandbox') throw notFound('Route');
  const amount = parseAmount(input.amount_minor);
  const currency = currencyOf(input.currency);
  const wallet = await getWallet(deps.db, ctx, { id: input.wallet_id });
  const network = wallet.network as Network;
  if (tokenDecimals(network, currency) === undefined) {
    throw new AppError(
      'unsupported_currency',
      `${currency} is not carried on ${network}; use USDT or USDC.`,
      [{ field: 'body.currency', issue: `not carried on ${network}` }],
    );
  }
  if (wallet.watch_only) {
    throw new AppError(
      'invalid_state',
      'This wallet is watch-only: its coins are not in Lastro custody, so deposits into it are not credited.',
    );
  }
  return write(async (tx) => {
    // The sandbox chain lives in this database: its transfer is made in the crediting transaction,
    // so a credit the ledger refuses (400) leaves no transfer behind for the watcher to meet again.
    const incoming = await deps.providers.sandbox.chain.simulateDeposit(
      {
        network,
        currency: currency as Stablecoin,
        toAddress: wallet.address,
        amountMinor: amount,
        key: depositKey(ctx),
      },
      tx,
    );
    const recorded = await recordDeposit(
      tx,
      caller.environment,
      incoming,
      deps.clock.now(),
      caller.workspaceId,
    );
    if (!recorded) throw new Error('a deposit into a custodial wallet was not credited');
    return recorded.payment;
  });
}
