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
): Promise<RecordedDeposit | undefined> {
  const to = validateAddress(incoming.network, incoming.toAddress);
  if (!to.ok || incoming.amountMinor <= 0n) return undefined;
  const wallet = await findCustodialWallet(tx, environment, incoming.network, to.address);
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
  await postJournal(tx, {
    workspaceId: wallet.workspace_id,
    environment,
    referenceType: 'payment',
    referenceId: paymentId,
    at,
    postings: [
      {
        account: systemAccount.cryptoCustody(wallet.workspace_id, environment, incoming.network, currency),
        direction: 'debit',
        amount: incoming.amountMinor,
      },
      {
        account: partyAccount(wallet.workspace_id, environment, wallet.party_id, currency),
        direction: 'credit',
        amount: incoming.amountMinor,
      },
    ],
  });
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

/**
 * One round of the deposit watcher: asks each environment's chain for transfers into our custodial
 * addresses confirmed since the cursor, credits each (once), and moves the cursor to the newest
 * confirmation seen. The cursor is inclusive, so a transfer confirmed at the cursor itself is asked
 * for again and found already credited.
 */
export async function watchDeposits(deps: Deps): Promise<number> {
  let credited = 0;
  for (const environment of ['sandbox', 'live'] as const) {
    if (!deps.providers.has('chain', environment)) continue;
    const addresses = (await watchedAddresses(deps.db, environment)) as WatchedAddress[];
    if (addresses.length === 0) continue;
    const chain = deps.providers.get('chain', environment);
    // A chain with its own block cursor moves it once everything it read is credited.
    if (chain.scanIncoming) {
      const scan = await chain.scanIncoming(addresses);
      credited += await recordAll(deps, environment, scan.transfers);
      await scan.commit();
      continue;
    }
    const since = (await watchCursor(deps.db, environment)) ?? new Date(0);
    const incoming = await chain.listIncoming(addresses, since);
    credited += await recordAll(deps, environment, incoming);
    const newest = incoming.at(-1)?.confirmedAt;
    if (newest && newest > since) await advanceWatchCursor(deps.db, environment, newest);
  }
  return credited;
}

async function recordAll(
  deps: Deps,
  environment: Environment,
  incoming: IncomingTransfer[],
): Promise<number> {
  let credited = 0;
  for (const transfer of incoming) {
    const recorded = await deps.db.transaction((tx) =>
      recordDeposit(tx, environment, transfer, deps.clock.now()),
    );
    if (recorded?.created) credited++;
  }
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
 * sender would), then it is credited through recordDeposit, the watcher's own path, at once; the
 * watcher finds it credited when the chain reports it.
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
      [{ field: 'currency', issue: `not carried on ${network}` }],
    );
  }
  if (wallet.watch_only) {
    throw new AppError(
      'invalid_state',
      'This wallet is watch-only: its coins are not in Lastro custody, so deposits into it are not credited.',
    );
  }
  const incoming = await deps.providers.sandbox.chain.simulateDeposit({
    network,
    currency: currency as Stablecoin,
    toAddress: wallet.address,
    amountMinor: amount,
    key: depositKey(ctx),
  });
  return write(async (tx) => {
    const recorded = await recordDeposit(tx, caller.environment, incoming, deps.clock.now());
    if (!recorded) throw new Error('a deposit into a custodial wallet was not credited');
    return recorded.payment;
  });
}
