import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  hkdfSync,
  randomBytes,
  randomFillSync,
  randomInt,
  scrypt,
  timingSafeEqual,
} from 'node:crypto';
import { promisify } from 'node:util';

const scryptAsync = promisify(scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: object,
) => Promise<Buffer>;

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** Uniformly random base62 text (randomInt avoids the modulo bias of bytes % 62). */
export function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i++) out += BASE62[randomInt(62)];
  return out;
}

export const sha256 = (value: string): Buffer => createHash('sha256').update(value).digest();

const SCRYPT = { N: 16384, r: 8, p: 1, keylen: 32 };

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  const hash = await scryptAsync(password, salt, SCRYPT.keylen, { N: SCRYPT.N, r: SCRYPT.r, p: SCRYPT.p });
  return `scrypt$${SCRYPT.N}$${SCRYPT.r}$${SCRYPT.p}$${salt.toString('base64')}$${hash.toString('base64')}`;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const actual = await scryptAsync(password, Buffer.from(salt, 'base64'), expected.length, {
    N: Number(n),
    r: Number(r),
    p: Number(p),
  });
  return timingSafeEqual(actual, expected);
}

/** A hash of a throwaway password, so an unknown e-mail costs as much time as a wrong password. */
export const DUMMY_PASSWORD_HASH = await hashPassword(randomBase62(24));

const IV_BYTES = 12;
/** Random bytes for 512 IVs, drawn from the CSPRNG in one call (as node:crypto does for randomUUID). */
const ivPool = Buffer.alloc(IV_BYTES * 512);
let ivPoolUsed = ivPool.length;

/**
 * A fresh random 96-bit IV. Each call into the CSPRNG costs as much as the AES-GCM seal around it, so
 * the bytes are drawn ahead, a pool at a time; every IV is still random and used once.
 */
function freshIv(): Buffer {
  if (ivPoolUsed === ivPool.length) {
    randomFillSync(ivPool);
    ivPoolUsed = 0;
  }
  const iv = Buffer.from(ivPool.subarray(ivPoolUsed, ivPoolUsed + IV_BYTES));
  ivPoolUsed += IV_BYTES;
  return iv;
}

/** AES-256-GCM under the master key; the text form is iv.tag.ciphertext in base64. */
export class Sealer {
  private readonly key: Buffer;
  private readonly hashKeys = new Map<string, Buffer>();

  constructor(masterKeyHex: string) {
    this.key = Buffer.from(masterKeyHex, 'hex');
  }

  seal(plain: string): string {
    const iv = freshIv();
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), body].map((part) => part.toString('base64')).join('.');
  }

  /**
   * HMAC-SHA256 of `value` under a key derived (HKDF) from the master key for `purpose`: equal values
   * hash equal, so a sealed value can still be found by exact match, and each purpose has its own key.
   */
  keyedHash(purpose: string, value: string): Buffer {
    let key = this.hashKeys.get(purpose);
    if (!key) {
      key = Buffer.from(hkdfSync('sha256', this.key, Buffer.alloc(0), `lastro:${purpose}`, 32));
      this.hashKeys.set(purpose, key);
    }
    return createHmac('sha256', key).update(value).digest();
  }

  open(sealed: string): string {
    const [iv, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64'));
    if (!iv || !tag || !body) throw new Error('malformed sealed value');
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
  }
}
