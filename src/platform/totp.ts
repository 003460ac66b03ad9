import { timingSafeEqual } from 'node:crypto';
import { generateSecret, generateSync, generateURI } from 'otplib';

/** RFC 6238: 30 s steps, 6 digits, SHA-1; one step of drift either way is accepted. */
export const TOTP_STEP_SECONDS = 30;

export const newTotpSecret = () => generateSecret();
export const totpUri = (secret: string, email: string) =>
  generateURI({ issuer: 'Lastro', label: email, secret });
export const totpCode = (secret: string, at: Date) =>
  generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) });

/**
 * The time step a code belongs to (previous, current or next, for clock drift), or undefined when
 * it matches none. The caller must still refuse a step at or below the last one accepted (RFC 6238
 * §5.2: a code is good once), so when two steps share a code the later one is returned.
 */
export function totpStep(secret: string, code: string, at: Date): number | undefined {
  if (!/^[0-9]{6}$/.test(code)) return undefined;
  const given = Buffer.from(code);
  const current = Math.floor(at.getTime() / 1000 / TOTP_STEP_SECONDS);
  for (const step of [current + 1, current, current - 1]) {
    const expected = Buffer.from(generateSync({ secret, epoch: step * TOTP_STEP_SECONDS }));
    if (expected.length === given.length && timingSafeEqual(expected, given)) return step;
  }
  return undefined;
}
