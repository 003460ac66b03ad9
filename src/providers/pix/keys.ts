/** PIX key types of the DICT (BCB's directory of PIX keys). */
export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'evp'] as const;
export type PixKeyType = (typeof PIX_KEY_TYPES)[number];

export interface PixKey {
  type: PixKeyType;
  /** The key as the DICT stores it: digits only for CPF, upper-case for CNPJ, lower-case e-mail. */
  value: string;
}

const digitsOf = (text: string) => [...text].map((c) => c.charCodeAt(0) - 48);

/** Modulo-11 check digit with the given weights (CPF and CNPJ share it). */
function checkDigit(values: number[], weights: number[]): number {
  const sum = values.reduce((acc, value, i) => acc + value * weights[i]!, 0);
  const rest = sum % 11;
  return rest < 2 ? 0 : 11 - rest;
}

export function isValidCpf(text: string): boolean {
  if (!/^[0-9]{11}$/.test(text) || /^(\d)\1{10}$/.test(text)) return false;
  const d = digitsOf(text);
  const first = checkDigit(d.slice(0, 9), [10, 9, 8, 7, 6, 5, 4, 3, 2]);
  const second = checkDigit(d.slice(0, 10), [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
  return d[9] === first && d[10] === second;
}

const CNPJ_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2];

/**
 * CNPJ with check digits, numeric or alphanumeric (the 2026 format: 12 characters [0-9A-Z] then 2
 * numeric check digits, each character valued at its ASCII code minus 48).
 */
export function isValidCnpj(text: string): boolean {
  if (!/^[0-9A-Z]{12}[0-9]{2}$/.test(text) || /^(\d)\1{13}$/.test(text)) return false;
  const values = digitsOf(text);
  const first = checkDigit(values.slice(0, 12), CNPJ_WEIGHTS.slice(1));
  const second = checkDigit(values.slice(0, 13), CNPJ_WEIGHTS);
  return values[12] === first && values[13] === second;
}

const EMAIL =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const PHONE = /^\+55[0-9]{10,11}$/;
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A document typed with its usual mask (123.456.789-09, 12.345.678/0001-95) is read without it. */
const unmask = (text: string) => text.replace(/[.\-/]/g, '');

function asType(raw: string, type: PixKeyType): PixKey | undefined {
  switch (type) {
    case 'cpf': {
      const value = unmask(raw);
      return isValidCpf(value) ? { type, value } : undefined;
    }
    case 'cnpj': {
      const value = unmask(raw).toUpperCase();
      return isValidCnpj(value) ? { type, value } : undefined;
    }
    case 'email':
      return raw.length <= 77 && EMAIL.test(raw) ? { type, value: raw.toLowerCase() } : undefined;
    case 'phone':
      return PHONE.test(raw) ? { type, value: raw } : undefined;
    case 'evp':
      return EVP.test(raw) ? { type, value: raw } : undefined;
  }
}

/** Validates a PIX key; the type is detected when not given. Undefined when the key is not valid. */
export function parsePixKey(raw: string, type?: PixKeyType): PixKey | undefined {
  const key = raw.trim();
  if (type) return asType(key, type);
  if (key.includes('@')) return asType(key, 'email');
  if (key.startsWith('+')) return asType(key, 'phone');
  if (EVP.test(key)) return asType(key, 'evp');
  return asType(key, 'cpf') ?? asType(key, 'cnpj');
}

/** A document (CPF or CNPJ) of a holder or payer. */
export function parseDocument(raw: string): PixKey | undefined {
  return asType(raw.trim(), 'cpf') ?? asType(raw.trim(), 'cnpj');
}

/** A document as it may travel in events and stored copies: all but its last two characters hidden. */
export const maskDocument = (value: string): string =>
  `${'*'.repeat(Math.max(0, value.length - 2))}${value.slice(-2)}`;
