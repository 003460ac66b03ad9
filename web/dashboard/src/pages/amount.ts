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
