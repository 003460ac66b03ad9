/**
 * The address of a due-date charge's hosted page: PUBLIC_BASE_URL/pay/due/{token}. The charge's id
 * alone would not do: it is a UUIDv7, whose ids made in the same millisecond (a batch's) differ by a
 * counter and 32 random bits, and in live it is the cobv's txid, which the payer's bank is told. The
 * token names the charge (environment, workspace, id) and carries an HMAC of those under a key the
 * master key derives for this purpose alone: it is made again from the charge whenever its view is
 * read (nothing stored, so every charge has one), nobody can make one for another charge, and a forged
 * or altered token is refused before anything is read.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Deps, Environment } from '../../platform/context.ts';
import type { Sealer } from '../../platform/secrets.ts';

const PURPOSE = 'due-charge-page';
/** 1 (environment) + 16 (workspace) + 16 (charge) + 15 = 48 bytes: 64 base64url characters, none wasted. */
const MAC_BYTES = 15;
const TOKEN = /^[A-Za-z0-9_-]{64}$/;
const ENVIRONMENTS: readonly Environment[] = ['sandbox', 'live'];

export interface DueCheckoutRef {
  environment: Environment;
  workspaceId: string;
  paymentId: string;
}

const uuidBytes = (id: string) => Buffer.from(id.replace(/-/g, ''), 'hex');

function uuidText(bytes: Buffer): string {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

const macOf = (sealer: Sealer, ref: DueCheckoutRef) =>
  sealer.keyedHash(PURPOSE, `${ref.environment}:${ref.workspaceId}:${ref.paymentId}`).subarray(0, MAC_BYTES);

export function dueCheckoutToken(sealer: Sealer, ref: DueCheckoutRef): string {
  return Buffer.concat([
    Buffer.of(ENVIRONMENTS.indexOf(ref.environment)),
    uuidBytes(ref.workspaceId),
    uuidBytes(ref.paymentId),
    macOf(sealer, ref),
  ]).toString('base64url');
}

/** The charge a token names, when its HMAC is right; undefined for anything else. */
export function openDueCheckoutToken(sealer: Sealer, token: string): DueCheckoutRef | undefined {
  if (!TOKEN.test(token)) return undefined;
  const bytes = Buffer.from(token, 'base64url');
  const environment = ENVIRONMENTS[bytes[0]!];
  if (!environment) return undefined;
  const ref = {
    environment,
    workspaceId: uuidText(bytes.subarray(1, 17)),
    paymentId: uuidText(bytes.subarray(17, 33)),
  };
  return timingSafeEqual(macOf(sealer, ref), bytes.subarray(33)) ? ref : undefined;
}

/** The page's absolute URL, for a charge as pix_due_charges keeps it. */
export const dueCheckoutUrl = (
  deps: Pick<Deps, 'config' | 'sealer'>,
  charge: { workspace_id: string; environment: Environment; payment_id: string },
): string =>
  `${deps.config.publicBaseUrl}/pay/due/${dueCheckoutToken(deps.sealer, {
    environment: charge.environment,
    workspaceId: charge.workspace_id,
    paymentId: charge.payment_id,
  })}`;
