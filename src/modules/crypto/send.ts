import type { Tx } from '../../db/types.ts';
import { currencyOf, parseAmount } from '../../ledger/currency.ts';
import { debitOfField } from '../../ledger/ledger.ts';
import { AppError, invalidRequest } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { type Network, type Stablecoin, tokenDecimals } from '../../providers/chain/networks.ts';
import { assertMayMoveMoney, owningParty } from '../parties/service.ts';
import {
  checkAddress,
  checkNetwork,
  isWhitelisted,
  type WalletRow,
  walletsOfParty,
} from '../wallets/service.ts';
import { networkFee } from './fees.ts';
import { cryptoTransfers } from './transfers.ts';

export interface SendInput {
  amount_minor: string;
  to_address: string;
  network: string;
  currency: string;
  from_address?: string;
  party_id?: string;
  description?: string;
  metadata?: Record<string, unknown>;
}

/**
 * The wallet a send leaves from: the party's wallet at `from` on the network, or, without `from`, its
 * only wallet there. 400 when it has none or several (the message says which), 422 when the wallet is
 * watch-only (Lastro holds no key to sign with).
 */
function sendingWallet(wallets: WalletRow[], network: Network, from: string | undefined): WalletRow {
  const field = [{ field: 'body.from_address', issue: 'not a sending wallet of the party' }];
  let wallet: WalletRow | undefined;
  if (from !== undefined) {
    wallet = wallets.find((each) => each.address === from);
    if (!wallet)
      throw invalidRequest(`from_address ${from} is not one of the party's wallets on ${network}.`, field);
  } else if (wallets.length === 0) {
    throw invalidRequest(`The party has no wallet on ${network}; create one first.`, field);
  } else if (wallets.length > 1) {
    throw invalidRequest(
      `The party has ${wallets.length} wallets on ${network}; send from_address, one of ${wallets.map((each) => each.address).join(', ')}.`,
      field,
    );
  } else {
    wallet = wallets[0]!;
  }
  if (wallet.provider_ref === null) {
    throw new AppError(
      'invalid_state',
      `Wallet ${wallet.address} is watch-only: Lastro holds no key for it, so it cannot send.`,
    );
  }
  return wallet;
}

/**
 * Starts a crypto send in the caller's transaction. Checks, in order (docs/crypto.md): body (400:
 * amount, network, currency, to_address, from_address) → party (403/404) → the sending wallet (400,
 * 422 watch-only) → whitelist for an API key (403) → balance (422) → provider (503). The OTP of a 2FA
 * session was checked before the body (the route's preValidation). Amount + network fee move
 * available → locked here; the chain is called by the send job after commit.
 */
export async function sendCrypto(tx: Tx, ctx: Ctx, input: SendInput) {
  const { caller, deps, idempotencyKey } = ctx;
  const { amount, network, currency, toAddress, from } = checkedSend(input);
  const partyId = await owningParty(tx, caller, input.party_id);
  await assertMayMoveMoney(tx, caller.workspaceId, partyId);
  const scope = { workspaceId: caller.workspaceId, environment: caller.environment, partyId };
  const wallet = sendingWallet(await walletsOfParty(tx, scope, network), network, from);
  if (caller.type === 'api_key') await assertWhitelisted(tx, caller, network, toAddress);
  const at = deps.clock.now();
  const payment = await debitOfField('body.amount_minor', () =>
    cryptoTransfers.start(
      tx,
      deps,
      {
        id: newId(),
        workspace_id: caller.workspaceId,
        environment: caller.environment,
        party_id: partyId,
        kind: 'crypto_send',
        amount_minor: amount,
        currency,
        fee_minor: networkFee(network),
        network,
        from_address: wallet.address,
        to_address: toAddress,
        wallet_id: wallet.id,
        description: input.description ?? null,
        idempotency_key: idempotencyKey ?? null,
        metadata: input.metadata,
        counterparty: { address: toAddress, network },
      },
      at,
    ),
  );
  // A live chain may carry only some networks (EVM today): the rest answer 503 like a missing chain.
  const chain = deps.providers.get('chain', caller.environment);
  if (chain.supports && !chain.supports(network, currency as Stablecoin)) {
    throw new AppError(
      'provider_unavailable',
      `${currency} on ${network} is not available in ${caller.environment} yet.`,
    );
  }
  return payment;
}

/** The send's amount, network, currency and addresses, each refused with its field when invalid. */
function checkedSend(input: SendInput) {
  const amount = parseAmount(input.amount_minor);
  const network = checkNetwork(input.network);
  const currency = currencyOf(input.currency);
  if (tokenDecimals(network, currency) === undefined) {
    throw new AppError('unsupported_currency', `${currency} is not sent on ${network}; send USDT or USDC.`, [
      { field: 'body.currency', issue: `not carried on ${network}` },
    ]);
  }
  const toAddress = checkAddress(network, input.to_address, 'body.to_address');
  const from =
    input.from_address === undefined
      ? undefined
      : checkAddress(network, input.from_address, 'body.from_address');
  return { amount, network, currency, toAddress, from };
}

/**
 * The whitelist is the owner's, of the workspace the key belongs to (a parent's key acting on its
 * sub-account is bound by the parent's whitelist). A dashboard session is not bound by it.
 */
async function assertWhitelisted(tx: Tx, caller: Ctx['caller'], network: string, toAddress: string) {
  const owner = { workspaceId: caller.callerWorkspaceId, environment: caller.environment };
  if (await isWhitelisted(tx, owner, network, toAddress)) return;
  throw new AppError(
    'destination_not_whitelisted',
    `${toAddress} is not whitelisted on ${network}. The workspace owner adds destinations in the dashboard (POST /v1/${caller.environment}/whitelist).`,
    [{ field: 'body.to_address', issue: `is not whitelisted on ${network}` }],
  );
}
