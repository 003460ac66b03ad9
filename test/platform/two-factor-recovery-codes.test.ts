/**
 * 2FA recovery codes over HTTP: turning 2FA on answers ten codes once; each logs in once instead of
 * an authenticator code, a second use is refused; a new set makes the old one stop working; every
 * use and every set is in the audit trail; only hashes are stored.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { totpCode } from '../../src/platform/totp.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type Owner, PASSWORD, signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
let owner: Owner;
let secret: string;
let codes: string[];
const auth = () => ({ authorization: `Bearer ${owner.sessionToken}` });
const login = (otp_code: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    remoteAddress: '198.51.100.9',
    payload: { email: owner.email, password: PASSWORD, otp_code },
  });
const audit = async (action: string) =>
  (
    await ctx.db.query<{ metadata: Record<string, unknown> }>(
      'SELECT metadata FROM audit_events WHERE workspace_id = $1 AND action = $2 ORDER BY id',
      [owner.workspaceId, action],
    )
  ).rows.map((row) => row.metadata);

beforeAll(async () => {
  ctx = await startTestApp();
  owner = await signupOwner(ctx.app, 'Recupera');
  const setup = await ctx.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: auth() });
  secret = setup.json().data.secret;
  const enable = await ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/enable',
    headers: auth(),
    payload: { otp_code: totpCode(secret, ctx.clock.now()) },
  });
  expect(enable.statusCode, enable.body).toBe(200);
  expect(enable.json().data.two_factor_enabled).toBe(true);
  codes = enable.json().data.recovery_codes;
});
afterAll(() => ctx.close());

it('turning 2FA on answers ten distinct codes, stored only as hashes, and audits the set', async () => {
  expect(codes).toHaveLength(10);
  expect(new Set(codes).size).toBe(10);
  for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
  const stored = await ctx.db.query<{ code_hash: Buffer }>('SELECT code_hash FROM user_recovery_codes');
  const text = stored.rows.map((row) => row.code_hash.toString('hex')).join(' ');
  for (const code of codes) expect(text).not.toContain(Buffer.from(code).toString('hex'));
  expect(await audit('user.recovery_codes_generated')).toEqual([{ count: 10 }]);
});

it('a recovery code logs in once; the second use is 401 otp_invalid', async () => {
  const first = await login(codes[0]!.toUpperCase());
  expect(first.statusCode, first.body).toBe(200);
  expect(first.json().data.session_token).toMatch(/^lastro_sess_/);
  const again = await login(codes[0]!);
  expect(again.statusCode, again.body).toBe(401);
  expect(again.json()).toMatchObject({
    error: 'otp_invalid',
    details: [{ field: 'body.otp_code', issue: 'is wrong or has already been used' }],
  });
  expect(await audit('user.recovery_code_used')).toEqual([{ codes_left: 9 }]);
});

it('a made-up recovery code is refused and audits nothing', async () => {
  const res = await login('aaaaa-bbbbb');
  expect(res.statusCode).toBe(401);
  expect(res.json().error).toBe('otp_invalid');
  expect(await audit('user.recovery_code_used')).toHaveLength(1);
});

it('a new set needs proof, replaces the old one and is audited', async () => {
  const wrong = await ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/recovery-codes',
    headers: auth(),
    payload: { otp_code: '000000' },
  });
  expect(wrong.statusCode, wrong.body).toBe(401);
  expect(wrong.json().error).toBe('otp_invalid');
  ctx.clock.advance(60_000);
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/recovery-codes',
    headers: auth(),
    payload: { otp_code: totpCode(secret, ctx.clock.now()) },
  });
  expect(res.statusCode, res.body).toBe(200);
  const fresh: string[] = res.json().data.recovery_codes;
  expect(fresh).toHaveLength(10);
  expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
  expect((await login(codes[1]!)).statusCode).toBe(401);
  expect((await login(fresh[0]!)).statusCode).toBe(200);
  expect(await audit('user.recovery_codes_regenerated')).toEqual([{ count: 10 }]);
});

it('a new set for an owner without 2FA is 422 invalid_state', async () => {
  const plain = await signupOwner(ctx.app, 'Sem 2FA');
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/recovery-codes',
    headers: { authorization: `Bearer ${plain.sessionToken}` },
    payload: { otp_code: '123456' },
  });
  expect(res.statusCode, res.body).toBe(422);
  expect(res.json().error).toBe('invalid_state');
});
