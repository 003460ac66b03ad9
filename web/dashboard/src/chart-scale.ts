/** The charts' arithmetic, apart from drawing: where a value falls, how a day is labelled. */

/** "26/11" in pt-BR, "11/26" in English: the day of a YYYY-MM-DD without a time zone shift. */
export function shortDay(day: string, locale: string): string {
  const [, month = '', date = ''] = day.split('-');
  return locale === 'en' ? `${month}/${date}` : `${date}/${month}`;
}

/** Pixel offset of `value` in a scale from `low` to `high` (bigint ratio: money is never a float). */
export function scaled(value: bigint, low: bigint, high: bigint, pixels: number): number {
  if (high === low) return 0;
  return Number(((value - low) * BigInt(pixels)) / (high - low));
}
