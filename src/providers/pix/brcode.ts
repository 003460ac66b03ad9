/**
 * BR Code ("PIX copia e cola"): EMV® QRCPS merchant-presented payload as BCB's manual defines it.
 * Written here rather than taken from pix-utils so the tests can check it against that library as
 * an independent parser.
 */

/** CRC16-CCITT-FALSE: poly 0x1021, init 0xFFFF, no reflection, no final xor. */
export function crc16(text: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(text, 'utf8')) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit++)
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function field(id: string, value: string): string {
  const length = Buffer.byteLength(value, 'utf8');
  if (length > 99) throw new Error(`EMV field ${id} is longer than 99 bytes`);
  return `${id}${String(length).padStart(2, '0')}${value}`;
}

/** Upper-case ASCII without accents, as payers' banking apps expect for name and city. */
export function emvText(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z0-9 .,-]/g, '')
    .toUpperCase()
    .trim()
    .slice(0, max);
}

export interface BrCodeInput {
  pixKey: string;
  /** BRL minor units. */
  amountMinor: bigint;
  merchantName: string;
  merchantCity: string;
  /** Up to 25 alphanumerics (field 62-05). */
  txid: string;
  description?: string;
}

const formatAmount = (minor: bigint) => `${minor / 100n}.${String(minor % 100n).padStart(2, '0')}`;

/** Field 54 holds at most 13 characters: "9999999999.99" is the largest amount a BR Code can carry. */
export const MAX_BR_CODE_AMOUNT_MINOR = 999_999_999_999n;

export function buildBrCode(input: BrCodeInput): string {
  if (!/^[A-Za-z0-9]{1,25}$/.test(input.txid)) throw new Error('txid must be 1..25 alphanumerics');
  if (input.amountMinor <= 0n || input.amountMinor > MAX_BR_CODE_AMOUNT_MINOR)
    throw new Error('amount does not fit field 54 of a BR Code');
  const keyPart = field('00', 'br.gov.bcb.pix') + field('01', input.pixKey);
  // Field 26 holds at most 99 bytes: the description (02) gets what the key leaves, and none when empty.
  const room = Math.min(40, 99 - keyPart.length - 4);
  const description = input.description && room > 0 ? emvText(input.description, room).trim() : '';
  const account = keyPart + (description ? field('02', description) : '');
  const payload =
    field('00', '01') +
    field('01', '12') +
    field('26', account) +
    field('52', '0000') +
    field('53', '986') +
    field('54', formatAmount(input.amountMinor)) +
    field('58', 'BR') +
    field('59', emvText(input.merchantName, 25) || 'LASTRO') +
    field('60', emvText(input.merchantCity, 15) || 'SAO PAULO') +
    field('62', field('05', input.txid)) +
    '6304';
  return payload + crc16(payload);
}

/**
 * The same BR Code without its amount (field 54), the CRC written anew. A charge with a due date
 * asks a different amount each day (the standard's cobv carries it in the payload its location
 * serves, not in the code), so a code fixing one amount would ask the wrong one on most days.
 */
export function withoutAmount(brCode: string): string {
  let fields = '';
  for (let at = 0; at < brCode.length - 8; ) {
    const id = brCode.slice(at, at + 2);
    const length = Number(brCode.slice(at + 2, at + 4));
    if (id !== '54') fields += brCode.slice(at, at + 4 + length);
    at += 4 + length;
  }
  const payload = `${fields}6304`;
  return payload + crc16(payload);
}
