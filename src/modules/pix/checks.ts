/**
 * What a PIX request must carry, each refusal naming its field in `details` the way a validation
 * error does, so a client places it next to that field without knowing the code.
 */
import { currencyOf } from '../../ledger/currency.ts';
import { AppError } from '../../platform/errors.ts';
import { type PixKey, type PixKeyType, parsePixKey } from '../../providers/pix/keys.ts';

/** The currency of a PIX request (BRL when absent); PIX moves only BRL, else 400 unsupported_currency. */
export function pixCurrencyOf(code: string | undefined, message: string): 'BRL' {
  const currency = currencyOf(code ?? 'BRL', 'body.currency');
  if (currency !== 'BRL') {
    throw new AppError('unsupported_currency', message, [
      { field: 'body.currency', issue: 'must be BRL on PIX' },
    ]);
  }
  return currency;
}

/** A present, non-blank pix_key, else 400 pix_key_required. */
export function requirePixKey(raw: string | undefined): string {
  if (!raw?.trim()) {
    throw new AppError('pix_key_required', 'pix_key is required.', [
      { field: 'body.pix_key', issue: 'is required' },
    ]);
  }
  return raw;
}

/** The key as the DICT stores it, of `type` when one is given, else 400 invalid_pix_key. */
export function pixKeyOf(raw: string, type?: PixKeyType): PixKey {
  const key = parsePixKey(raw, type);
  if (key) return key;
  throw new AppError('invalid_pix_key', 'pix_key is not a valid CPF, CNPJ, e-mail, +55 phone or EVP key.', [
    {
      field: 'body.pix_key',
      issue: type ? `is not a valid ${type} key` : 'is not a valid CPF, CNPJ, e-mail, +55 phone or EVP key',
    },
  ]);
}
