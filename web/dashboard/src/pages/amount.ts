import { LocalError } from '../components.tsx';
import { getLocale, t } from '../i18n.ts';
import { parseMoney } from '../money.ts';

/** The amount a person typed, as minor units for the API, or an error next to the field. */
export function minorOf(text: string, currency: string, field = 'amount_minor'): string {
  const minor = parseMoney(text, currency, getLocale());
  if (minor === null || minor === '0')
    throw new LocalError(
      field,
      getLocale() === 'en' ? t('Enter an amount like 1,234.56.') : t('Enter an amount like 1.234,56.'),
    );
  return minor;
}

/** A percentage typed as "2", "2,5" or "2.50", as the API's "2.50"; empty is none; else an error on the field. */
export function percentOf(text: string, field: string): string | undefined {
  const trimmed = text.trim().replace(/\s*%$/, '');
  if (!trimmed) return undefined;
  const match = /^(\d{1,3})(?:[.,](\d{1,2}))?$/.exec(trimmed);
  if (!match)
    throw new LocalError(
      field,
      getLocale() === 'en' ? t('Enter a percentage like 2.50.') : t('Enter a percentage like 2,50.'),
    );
  return `${match[1]}.${(match[2] ?? '').padEnd(2, '0')}`;
}
