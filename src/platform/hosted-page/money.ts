import type { Locale } from './locale.ts';

/** BRL minor units for people: "R$ 1.234,56" in Portuguese, "R$1,234.56" in English. From bigint, never a float. */
export function formatBrl(minor: bigint, locale: Locale): string {
  const [group, decimal, prefix] = locale === 'pt-BR' ? ['.', ',', 'R$ '] : [',', '.', 'R$'];
  const units = (minor / 100n).toString().replace(/\B(?=(\d{3})+(?!\d))/g, group);
  const cents = (minor % 100n).toString().padStart(2, '0');
  return `${prefix}${units}${decimal}${cents}`;
}
