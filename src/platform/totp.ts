import { generateSecret, generateSync, generateURI, verifySync } from 'otplib';

/** RFC 6238: 30 s steps, 6 digits, SHA-1; one step of drift either way is accepted. */
export const newTotpSecret = () => generateSecret();
export const totpUri = (secret: string, email: string) =>
  generateURI({ issuer: 'Lastro', label: email, secret });
export const totpCode = (secret: string, at: Date) =>
  generateSync({ secret, epoch: Math.floor(at.getTime() / 1000) });
export function totpValid(secret: string, code: string, at: Date): boolean {
  if (!/^[0-9]{6}$/.test(code)) return false;
  return verifySync({ secret, token: code, epoch: Math.floor(at.getTime() / 1000), epochTolerance: 30 })
    .valid;
}
