import type { Queryable, Tx } from '../../db/types.ts';
import { parseAmount } from '../../ledger/currency.ts';
import type { Caller } from '../../platform/context.ts';
import { AppError, invalidRequest } from '../../platform/errors.ts';
import { newId } from '../../platform/ids.ts';
import type { Ctx } from '../../platform/request-context.ts';
import { MAX_BR_CODE_AMOUNT_MINOR } from '../../providers/pix/brcode.ts';
import { parseDocument } from '../../providers/pix/keys.ts';
import { owningParty } from '../parties/service.ts';
import type { PaymentView } from '../payments/schemas.ts';
import { createPayment } from '../payments/service.ts';
import { pixCurrencyOf } from './checks.ts';
import { feeFor } from './fees.ts';

export interface ChargeInput {
  amount_minor: string;
  currency?: string;
  party_id?: string;
  description?: string;
  expires_in_seconds?: number;
  payer?: { name: string; document: string };
  metadata?: Record<string, unknown>;
}

/** Checks a charge before anything is written or the provider is called. */
export function validateCharge(input: ChargeInput) {
  const amount = parseAmount(input.amount_minor);
  const currency = pixCurrencyOf(input.currency, 'PIX charges are in BRL.');
  if (amount > MAX_BR_CODE_AMOUNT_MINOR) {
    throw new AppError('invalid_amount', `A PIX charge is at most ${MAX_BR_CODE_AMOUNT_MINOR} minor units.`, [
      { field: 'body.amount_minor', issue: `must be at most ${MAX_BR_CODE_AMOUNT_MINOR} (BR Code field 54)` },
    ]);
  }
  const payerDocument = input.payer ? parseDocument(input.payer.document) : undefined;
  if (input.payer && !payerDocument) {
    throw invalidRequest('payer.document must be a valid CPF or CNPJ.', [
      { field: 'body.payer.document', issue: 'not a valid CPF or CNPJ' },
    ]);
  }
  return { amount, currency, payerDocument };
}

/** The cash-in fee of a charge of `amount`; a charge the fee would take whole is refused. */
export async function cashInFee(q: Queryable, caller: Caller, amount: bigint): Promise<bigint> {
  const fee = await feeFor(q, caller.workspaceId, caller.environment, 'pix_cash_in', amount);
  if (fee >= amount) {
    throw new AppError('invalid_amount', `amount_minor must be more than the cash-in fee of ${fee}.`, [
      { field: 'body.amount_minor', issue: `must be more than the cash-in fee of ${fee}` },
    ]);
  }
  return fee;
}

/**
 * Creates a cash-in charge. The provider registers it first (outside any transaction: it only
 * hands out a BR Code, no money moves), then one transaction records the payment and its event.
 * A charge whose transaction fails leaves an orphan BR Code at the provider that simply expires.
 */
export async function createCharge(
  ctx: Ctx,
  input: ChargeInput,
  write: <T>(fn: (tx: Tx) => Promise<T>) => Promise<T>,
  /** Runs in the payment's own transaction, after it is written (a payment link's checkout record). */
  within?: (tx: Tx, payment: PaymentView) => Promise<void>,
) {
  const { caller, deps, idempotencyKey } = ctx;
  const { amount, currency, payerDocument } = validateCharge(input);
  const provider = deps.providers.get('pix', caller.environment);
  const partyId = await owningParty(deps.db, caller, input.party_id);
  const fee = await cashInFee(deps.db, caller, amount);
  const paymentId = newId();
  const at = deps.clock.now();
  const expiresAt = new Date(at.getTime() + (input.expires_in_seconds ?? 86_400) * 1000);
  const charge = await provider.createCharge({
    paymentId,
    amountMinor: amount,
    description: input.description,
    expiresAt,
  });
  return write(async (tx) => {
    const payment = await createPayment(
      tx,
      {
        id: paymentId,
        workspace_id: caller.workspaceId,
        environment: caller.environment,
        party_id: partyId,
        kind: 'pix_cash_in',
        amount_minor: amount,
        currency,
        fee_minor: fee,
        description: input.description ?? null,
        pix_qr_code: charge.brCode,
        pix_txid: charge.txid,
        provider_ref: charge.providerRef,
        expires_at: expiresAt,
        idempotency_key: idempotencyKey ?? null,
        metadata: input.metadata,
        counterparty: input.payer
          ? {
              name: input.payer.name,
              // Masked when the payment is stored and whenever it is shown (maskCounterparty).
              document: payerDocument!.value,
              document_type: payerDocument!.type,
            }
          : null,
      },
      { at },
    );
    await within?.(tx, payment);
    return payment;
  });
}
