import { invalidRequest } from '../../platform/errors.ts';
import type { Sealer } from '../../platform/secrets.ts';
import { isValidCnpj, isValidCpf } from '../../providers/pix/keys.ts';

export const DOCUMENT_TYPES = ['cpf', 'cnpj'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

const HASH_PURPOSE = 'party-document';

/** A document without its mask, in any punctuation: digits (and CNPJ letters, upper-cased) only. */
export const bareDocument = (raw: string) => raw.replace(/[^0-9A-Za-z]/g, '').toUpperCase();

/** The type a bare document is valid as, or undefined. */
export function documentTypeOf(bare: string): DocumentType | undefined {
  if (isValidCpf(bare)) return 'cpf';
  if (isValidCnpj(bare)) return 'cnpj';
  return undefined;
}

export interface SealedDocument {
  type: DocumentType;
  sealed: string;
  hash: Buffer;
}

/**
 * Validates a customer's document against its type (detected when not given): CPF or CNPJ with check
 * digits, alphanumeric CNPJ included. It is stored sealed with a keyed hash beside it, never in clear.
 */
export function sealDocument(sealer: Sealer, raw: string, type?: DocumentType): SealedDocument {
  const bare = bareDocument(raw);
  const detected = documentTypeOf(bare);
  if (!detected || (type !== undefined && type !== detected)) {
    const expected = type === undefined ? 'a CPF or CNPJ' : `a ${type.toUpperCase()}`;
    throw invalidRequest(`document_number is not ${expected} with valid check digits.`, [
      { field: 'body.document_number', issue: `must be ${expected} with valid check digits` },
    ]);
  }
  return { type: detected, sealed: sealer.seal(bare), hash: documentHash(sealer, bare) };
}

export const documentHash = (sealer: Sealer, bare: string) => sealer.keyedHash(HASH_PURPOSE, bare);

/** The hash to look a search text up by, when the text is a valid document in any punctuation. */
export function searchDocumentHash(sealer: Sealer, search: string): Buffer | null {
  const bare = bareDocument(search);
  return documentTypeOf(bare) ? documentHash(sealer, bare) : null;
}
