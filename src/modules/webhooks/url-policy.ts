import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import type { Environment } from '../../platform/context.ts';
import { invalidRequest } from '../../platform/errors.ts';

/**
 * Where a webhook may never be sent unless private destinations are allowed (sandbox with
 * WEBHOOK_ALLOW_PRIVATE=1): loopback, private, shared (CGNAT), link-local (cloud metadata at
 * 169.254.169.254), unspecified, multicast, reserved and documentation ranges, and the IPv6 forms
 * that embed an IPv4 address (mapped, NAT64, 6to4) so no private IPv4 hides behind one.
 * (No ::ffff:0:0/96 rule: BlockList maps every IPv4 address into it, so it would block them all.)
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of [
  ['::', 96], // unspecified, loopback and the old IPv4-compatible form ::a.b.c.d
  ['2001::', 32], // Teredo: carries an IPv4 address
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const)
  BLOCKED.addSubnet(network, prefix, 'ipv6');

const BLOCKED_NAMES = /^(localhost|.*\.localhost|metadata\.google\.internal|metadata)\.?$/i;

/** True when `address` (an IP literal) is not a public unicast address. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) {
    // Node's BlockList checks IPv4 rules against IPv4-mapped addresses itself; an IPv4-mapped
    // destination is refused outright (no public webhook URL needs that form).
    const normalized = new URL(`http://[${address.replace(/%.*$/, '')}]`).hostname.slice(1, -1);
    return /^::ffff:/i.test(normalized) || BLOCKED.check(normalized, 'ipv6');
  }
  return true; // not an address at all: refuse rather than guess
}

/** Private destinations are allowed only in sandbox, and only when WEBHOOK_ALLOW_PRIVATE=1. */
export const privateAllowed = (environment: Environment, webhookAllowPrivate: boolean): boolean =>
  environment === 'sandbox' && webhookAllowPrivate;

export class DestinationRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DestinationRefused';
  }
}

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, '$1');

/**
 * Why `raw` may not receive webhooks in `environment`, or null when it may. Checks the URL itself:
 * absolute http(s), no credentials, https in live, no private literal address or local name.
 * Names are resolved and checked again at every delivery (see guardedLookup).
 */
export function urlProblem(raw: string, environment: Environment, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'must be an absolute http or https URL';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  if (environment === 'live' && url.protocol !== 'https:') return 'must use https in live';
  if (url.username || url.password) return 'must not carry credentials';
  if (url.hash) return 'must not carry a fragment';
  // Port 0 names no service: nothing can ever answer there, so every delivery would fail.
  if (url.port === '0') return 'must not use port 0';
  const host = hostOf(url);
  const isLocal = isIP(host) ? isPrivateAddress(host) : BLOCKED_NAMES.test(host);
  if (isLocal && !allowPrivate)
    return 'must not point to a loopback, private, link-local or metadata address';
  return null;
}

/** The endpoint URL, normalized, or 400 invalid_request. */
export function checkEndpointUrl(raw: string, environment: Environment, allowPrivate: boolean): string {
  const problem = urlProblem(raw, environment, allowPrivate);
  if (problem) throw invalidRequest(`url ${problem}.`, [{ field: 'body.url', issue: problem }]);
  return new URL(raw).toString();
}

/**
 * A DNS lookup for http.request that refuses private addresses: the socket connects only to an
 * address that was checked, so a name cannot resolve to a public address for the check and to a
 * private one for the connection (DNS rebinding).
 */
export function guardedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as unknown as LookupAddress[];
      const refused = allowPrivate ? undefined : list.find((entry) => isPrivateAddress(entry.address));
      if (refused || list.length === 0) {
        const reason = refused
          ? `${hostname} resolves to a private address (${refused.address})`
          : `${hostname} has no address`;
        return callback(new DestinationRefused(reason) as NodeJS.ErrnoException, '', 0);
      }
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}
