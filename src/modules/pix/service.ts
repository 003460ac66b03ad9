/** What other modules may ask of the PIX module. */
export { type ChargeInput, createCharge } from './charges.ts';
export { pixCurrencyOf } from './checks.ts';
export { amountDue, type DueTerms } from './due-amount.ts';
export { feeFor } from './fees.ts';
export { partyDebts, recoverPartyDebt } from './med-returns.ts';
export { qrPngDataUrl } from './qr-image.ts';
