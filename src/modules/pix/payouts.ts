import type { Tx } from '../../db/types.ts';
import { parseAmount } from '../../ledger/currency.ts';
import { debitOfField } from '../../ledger/ledger.ts';
import { AppError } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import type { PixKeyType } from '../../providers/pix/keys.ts';
import { explainDisputeHolds } from '../disputes/service.ts';
import { refuseBlocked } from '../parties/service.ts';
import { pixCurrencyOf, pixKeyOf, requirePixKey } from './checks.ts';
import { computeFee, DEFAULT_FEES } from './fees.ts';
import { loadPayoutContext } from './payout-context.ts';
import { pixTransfers } from './transfers.ts';

export interface PayoutInput {
  amount_minor: string;
  currency?: string;
  pix_key?: string;
  pix_key_type?: PixKeyType;
  party_id?: string;
  description?: string;
  receiver_name?: string;
  receiver_document?: string;
  payout_account_id?: string;
  approval_id?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Starts a PIX payout in the caller's transaction, checks in API.md's order: body (400) → the paying
 * party (404 unknown, 403 outside a party-scoped key or blocked) → settlement key (403) → KYC in live
 * (403) → balance (422) → provider (503). A blocked party is refused before the settlement key: like the
 * party scope, it is about who may move the money, not about how it would travel. Amount + fee move
 * available → locked here; the provider is called by the send job after commit.
 */
export async function createPayout(tx: Tx, ctx: Ctx, input: PayoutInput) {
  const { caller, deps, idempotencyKey } = ctx;
  const amount = parseAmount(input.amount_minor);
  const currency = pixCurrencyOf(input.currency, 'PIX payouts are in BRL.');
  // The key's shape is checked for every caller, before anything decides where the money goes: a
  // malformed key is a caller's bug whoever sends it. Only a dashboard session's key is the destination;
  // an API key's payout goes to the registered settlement key, whatever pix_key says.
  const parsedKey = pixKeyOf(requirePixKey(input.pix_key), input.pix_key_type);
  const sentKey = caller.type === 'session' ? parsedKey : undefined;
  const context = await loadPayoutContext(tx, caller, input.party_id);
  const { partyId, settlement } = context;
  refuseBlocked(context.partyStatus);
  if (!settlement) {
    throw new AppError(
      'settlement_key_required',
      'Register a settlement key in the dashboard before paying out.',
    );
  }
  if (caller.environment === 'live' && context.kycStatus !== 'approved') {
    throw new AppError('kyc_not_approved', 'The paying party needs approved KYC before live payouts.');
  }
  const destination = sentKey ?? { type: settlement.pix_key_type, value: settlement.pix_key };
  const fee = computeFee(amount, context.feeSchedule ?? DEFAULT_FEES.pix_payout);
  const at = deps.clock.now();
  const paymentId = newId();

  // BRL an open dispute holds sits in locked: the refusal says so, not only that available is short.
  const owner = { workspaceId: caller.workspaceId, environment: caller.environment, partyId };
  return explainDisputeHolds(tx, owner, () =>
    debitOfField('body.amount_minor', () =>
      pixTransfers.start(
        tx,
        deps,
        {
          id: paymentId,
          workspace_id: caller.workspaceId,
          environment: caller.environment,
          party_id: partyId,
          kind: 'pix_cash_out',
          amount_minor: amount,
          currency,
          fee_minor: fee,
          pix_key: destination.value,
          description: input.description ?? null,
          idempotency_key: idempotencyKey ?? null,
          metadata: input.metadata,
          counterparty: {
            pix_key: destination.value,
            pix_key_type: destination.type,
            name: sentKey ? (input.receiver_name ?? null) : settlement.holder_name,
            document: sentKey ? (input.receiver_document ?? null) : settlement.holder_document,
          },
        },
        at,
      ),
    ),
  );
}
