import { createHash, timingSafeEqual } from 'node:crypto';
import type { Config } from '../../config.ts';

const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();

/**
 * Whether a PSP notification carries the secret registered with the PSP's webhooks (Efí's `hmac`
 * query alternative to mutual TLS on our side): the PIX callback and the Pix Automático ones alike.
 * Compared as SHA-256 digests in constant time, so neither the secret's length nor a matching prefix
 * shows in the timing.
 */
export function fromOurPsp(config: Config, hmac: unknown): boolean {
  const secret = config.pix.bcb?.webhookSecret;
  if (!secret || typeof hmac !== 'string') return false;
  return timingSafeEqual(digest(hmac), digest(secret));
}
