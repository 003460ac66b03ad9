/**
 * TRUST_PROXY names the proxies in front of the API. From them, X-Forwarded-For says who the client
 * is (so limits and failed-login counts are the client's, not the proxy's) and X-Forwarded-Proto
 * says whether it came over HTTPS (so the session cookie is Secure). From anyone else, and with the
 * setting unset, both headers are ignored.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type Owner, PASSWORD, signupOwner } from '../support/fixtures.ts';

describe('the TRUST_PROXY setting', () => {
  it('is off by default and takes addresses, CIDRs and proxy-addr names', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
  });

  // A prefix of 0 (everyone is a proxy) is refused by Fastify's proxy-addr too: here it is a ConfigError, not a crash.
  it.each([
    'true',
    '*',
    'proxy.internal',
    '10.0.0.0/33',
    '::1/129',
    '10.0.0.1/8/2',
    '10.0.0.0/',
    '0.0.0.0/0',
    '::/0',
  ])('refuses %j at start, naming the setting', (value) => {
    try {
      loadConfig({ TRUST_PROXY: value });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).setting).toBe('TRUST_PROXY');
    }
  });
});

const login = (
  ctx: TestContext,
  email: string,
  headers: Record<string, string>,
  remoteAddress = '127.0.0.1',
) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    remoteAddress,
    headers,
    payload: { email, password: PASSWORD },
  });

/** 50 failed logins on as many unknown accounts: the most one address may fail. */
async function exhaust(ctx: TestContext, headers: Record<string, string>) {
  for (let i = 0; i < 50; i++) {
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/v1/auth/login',
      headers,
      payload: { email: `nobody-${i}@example.com`, password: 'wrong' },
    });
    expect(res.statusCode).toBe(401);
  }
}

describe('behind a trusted proxy', () => {
  let ctx: TestContext;
  let owner: Owner;
  beforeAll(async () => {
    ctx = await startTestApp({ trustProxy: loadConfig({ TRUST_PROXY: '127.0.0.1' }).trustProxy });
    owner = await signupOwner(ctx.app, 'Atras do Proxy');
  });
  afterAll(() => ctx.close());

  it('marks the session cookie Secure when the client came over HTTPS', async () => {
    const res = await login(ctx, owner.email, {
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-proto': 'https',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['set-cookie'])).toMatch(/^lastro_session=.*; Secure/);
    const plain = await login(ctx, owner.email, {
      'x-forwarded-for': '203.0.113.7',
      'x-forwarded-proto': 'http',
    });
    expect(String(plain.headers['set-cookie'])).not.toMatch(/Secure/);
  });

  it('counts failed logins per client, so one client closing its address leaves the others open', async () => {
    await exhaust(ctx, { 'x-forwarded-for': '203.0.113.5' });
    expect((await login(ctx, owner.email, { 'x-forwarded-for': '203.0.113.5' })).statusCode).toBe(429);
    const other = await login(ctx, owner.email, { 'x-forwarded-for': '203.0.113.6' });
    expect(other.statusCode, other.body).toBe(200);
  });

  it('believes neither header from an address it does not trust', async () => {
    const res = await login(ctx, owner.email, { 'x-forwarded-proto': 'https' }, '198.51.100.9');
    expect(res.statusCode, res.body).toBe(200);
    expect(String(res.headers['set-cookie'])).not.toMatch(/Secure/);
  });
});

describe('with TRUST_PROXY unset', () => {
  let ctx: TestContext;
  let owner: Owner;
  beforeAll(async () => {
    ctx = await startTestApp();
    owner = await signupOwner(ctx.app, 'Sem Proxy');
  });
  afterAll(() => ctx.close());

  it('ignores X-Forwarded-For and X-Forwarded-Proto: a forged header buys no fresh allowance', async () => {
    const https = await login(ctx, owner.email, { 'x-forwarded-proto': 'https' });
    expect(String(https.headers['set-cookie'])).not.toMatch(/Secure/);
    await exhaust(ctx, { 'x-forwarded-for': '203.0.113.5' });
    expect((await login(ctx, owner.email, { 'x-forwarded-for': '203.0.113.6' })).statusCode).toBe(429);
  });
});
