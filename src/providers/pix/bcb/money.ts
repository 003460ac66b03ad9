/** Amounts as the API Pix writes them: a decimal string with two places, `\d{1,10}\.\d{2}`. */
const AMOUNT = /^([0-9]{1,10})\.([0-9]{2})$/;

export function toPspAmount(minor: bigint): string {
  if (minor < 0n) throw new RangeError('a PSP amount is never negative');
  const text = minor.toString().padStart(3, '0');
  return `${text.slice(0, -2)}.${text.slice(-2)}`;
}

/** Minor units of a PSP amount, or undefined when the text is not one. */
export function fromPspAmount(text: unknown): bigint | undefined {
  const match = typeof text === 'string' ? AMOUNT.exec(text) : null;
  return match ? BigInt(match[1]!) * 100n + BigInt(match[2]!) : undefined;
}
