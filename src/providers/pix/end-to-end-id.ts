import { randomBase62 } from '../../platform/secrets.ts';

/** End-to-end id of a PIX transfer: E + 8-digit ISPB + yyyyMMddHHmm (UTC) + 11 alphanumerics = 32 chars. */
export function endToEndId(ispb: string, at: Date): string {
  const stamp = at.toISOString().replace(/[-:T]/g, '').slice(0, 12);
  return `E${ispb}${stamp}${randomBase62(11)}`;
}

export const END_TO_END_ID = /^E[0-9]{8}[0-9]{12}[A-Za-z0-9]{11}$/;
