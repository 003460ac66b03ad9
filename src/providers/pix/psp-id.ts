/**
 * Our ids at a PSP. A txid (26–35 alphanumerics), a devolução id and an Efí idEnvio (1–35
 * alphanumerics) are all the payment's UUID without its dashes: 32 hex digits, unique, and mapped
 * back to the payment without a lookup table.
 */
export const pspIdOf = (paymentId: string): string => paymentId.replace(/-/g, '').toLowerCase();

/** The payment id a PSP id stands for, or undefined when it is not one of ours. */
export function paymentIdOf(pspId: unknown): string | undefined {
  if (typeof pspId !== 'string' || !/^[0-9a-fA-F]{32}$/.test(pspId)) return undefined;
  const hex = pspId.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
