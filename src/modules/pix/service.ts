/** What other modules may ask of the PIX module. */
export { type ChargeInput, createCharge } from './charges.ts';
export { qrPngDataUrl } from './qr-image.ts';
