/**
 * Hardening: the deprecated IPv4-compatible IPv6 block ::/96 (e.g. [::127.0.0.1],
 * normalized to ::7f00:1) and Teredo 2001::/32 were not refused, although docs/webhooks.md promises
 * "nor an IPv6 form embedding IPv4". On this Linux host ::7f00:1 is unroutable (EHOSTUNREACH), so no
 * live bypass was shown; on a host with a sit/6in4 tunnel it reaches the embedded IPv4.
 * src/modules/webhooks/url-policy.ts BLOCKED (IPv6 list).
 */
import { expect, it } from 'vitest';
import { isPrivateAddress, urlProblem } from './url-policy.ts';

it('refuses IPv6 forms that embed a private IPv4 address', () => {
  expect(isPrivateAddress('::ffff:127.0.0.1')).toBe(true); // the mapped form
  expect(urlProblem('https://[::ffff:7f00:1]/hook', 'live', false)).not.toBeNull(); // ok
  // The IPv4-compatible forms of 127.0.0.1 and 169.254.169.254 are refused by the live policy too.
  expect(urlProblem('https://[::127.0.0.1]/hook', 'live', false)).not.toBeNull();
  expect(urlProblem('https://[::169.254.169.254]/hook', 'live', false)).not.toBeNull();
});
