/** pt-BR by default, English on request: each English sentence is its own key, Portuguese looked up. */
import { PT } from './pt.ts';

export type Locale = 'pt-BR' | 'en';
const STORED = 'lastro.locale';

// Read where there is a page; the unit tests import this module under Node, without one (and the
// server's typecheck, which has no DOM types, reads it through them).
const page = globalThis as {
  localStorage?: { getItem(key: string): string | null; setItem(key: string, value: string): void };
  document?: { documentElement: { lang: string } };
};
const storage = page.localStorage ?? null;
let locale: Locale = storage?.getItem(STORED) === 'en' ? 'en' : 'pt-BR';

export const getLocale = (): Locale => locale;
export function setLocale(next: Locale): void {
  locale = next;
  storage?.setItem(STORED, next);
  if (page.document) page.document.documentElement.lang = next;
}
if (page.document) page.document.documentElement.lang = locale;

/** The sentence in the current language; {name} placeholders are filled from `values`. */
export function t(english: string, values: Record<string, string | number> = {}): string {
  const text = locale === 'en' ? humanized(english) : (PT[english] ?? english);
  return text.replace(/\{(\w+)\}/g, (_match, name: string) => String(values[name] ?? ''));
}

/** API values (completed, pix_cash_in) read as words in English: "Completed", "Pix cash in". */
const EN: Record<string, string> = {
  pix_cash_in: 'PIX cash-in',
  pix_cash_out: 'PIX payout',
  pix_refund: 'PIX refund',
  rfq_settlement: 'Conversion',
};

function humanized(text: string): string {
  if (EN[text]) return EN[text];
  if (!/^[a-z][a-z0-9_]*$/.test(text)) return text;
  const words = text.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
