import { describe, expect, it } from 'vitest';
import {
  DestinationRefused,
  guardedLookup,
  isPrivateAddress,
  privateAllowed,
  urlProblem,
} from './url-policy.ts';

describe('isPrivateAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.255.254',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '100.64.0.1',
    '100.127.255.255',
    '169.254.169.254',
    '0.0.0.0',
    '0.1.2.3',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fd00::1',
    'fc00::1',
    'fe80::1',
    'fe80::1%eth0',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    '::ffff:8.8.8.8',
    '64:ff9b::a00:1',
    '2002:7f00:1::',
    'not-an-ip',
  ])('%s is refused', (address) => {
    expect(isPrivateAddress(address)).toBe(true);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '172.32.0.1',
    '172.15.255.255',
    '100.128.0.1',
    '192.169.0.1',
    '2606:4700::1111',
  ])('%s is public', (address) => {
    expect(isPrivateAddress(address)).toBe(false);
  });
});

describe('urlProblem', () => {
  it('wants an absolute http(s) URL without credentials', () => {
    expect(urlProblem('/relative', 'sandbox', false)).toMatch(/absolute/);
    expect(urlProblem('ftp://example.com/', 'sandbox', false)).toMatch(/http/);
    expect(urlProblem('https://u:p@example.com/', 'sandbox', false)).toMatch(/credentials/);
    expect(urlProblem('https://example.com/hooks?a=1', 'live', false)).toBeNull();
  });

  it('wants https in live, allows http in sandbox', () => {
    expect(urlProblem('http://example.com/', 'live', false)).toMatch(/https/);
    expect(urlProblem('http://example.com/', 'sandbox', false)).toBeNull();
  });

  it('refuses private literals and local names unless private destinations are allowed', () => {
    for (const url of [
      'https://127.0.0.1/',
      'https://[::1]/',
      'https://[fd00::1]/',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/',
      'https://0.0.0.0/',
      'https://localhost/',
      'https://api.localhost/',
      'https://metadata.google.internal/',
      'https://[::ffff:127.0.0.1]/',
      'https://2130706433/', // 127.0.0.1 as one number: URL normalizes it
      'https://0x7f.1/',
    ]) {
      expect(urlProblem(url, 'live', false), url).toMatch(/private/);
      expect(urlProblem(url, 'sandbox', false), url).toMatch(/private/);
      expect(urlProblem(url, 'sandbox', true), url).toBeNull();
    }
  });

  it('allows private destinations only in sandbox with the flag', () => {
    expect(privateAllowed('sandbox', true)).toBe(true);
    expect(privateAllowed('sandbox', false)).toBe(false);
    expect(privateAllowed('live', true)).toBe(false);
  });
});

describe('guardedLookup', () => {
  const resolve = (allowPrivate: boolean, all: boolean) =>
    new Promise<unknown>((done, fail) =>
      guardedLookup(allowPrivate)('localhost', { all }, (error, address) =>
        error ? fail(error) : done(address),
      ),
    );

  it('refuses a name that resolves to a private address', async () => {
    await expect(resolve(false, false)).rejects.toBeInstanceOf(DestinationRefused);
    await expect(resolve(false, true)).rejects.toThrow(/private address/);
  });

  it('passes it through when private destinations are allowed', async () => {
    expect(await resolve(true, false)).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(Array.isArray(await resolve(true, true))).toBe(true);
  });
});
