/**
 * A wrong X-OTP-Code on a crypto send answered 401 otp_invalid and nothing
 * else happened, so a stolen 2FA session could guess codes at the general rate limit until one hit,
 * then send the whole balance anywhere (sessions are not bound by the whitelist). Guesses are now
 * throttled like failed logins: past 10 wrong codes, 429 even for the right one.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CryptoWorkspace, cryptoWorkspace, OUTSIDE, SEND } from '../crypto/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let ws: CryptoWorkspace;
let code: () => string;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await cryptoWorkspace(ctx, 'Dois Fatores');
  const wallet = await ws.wallet('polygon');
  await ws.deposit(wallet.id, '10000000');
  code = await ws.enableTwoFactor();
});
afterAll(() => ctx.close());

it('wrong one-time codes on crypto send are throttled, the right one included once over the limit', async () => {
  const body = { amount_minor: '1000000', to_address: OUTSIDE.evm, network: 'polygon', currency: 'USDT' };
  const right = code();
  const codes: number[] = [];
  for (let guess = 0; codes.length < 12; guess++) {
    const attempt = String(guess).padStart(6, '0');
    if (attempt === right) continue;
    codes.push((await ws.session.post(SEND, body, { 'x-otp-code': attempt })).statusCode);
  }
  expect(codes.slice(0, 10)).toEqual(Array(10).fill(401));
  expect(codes.slice(10)).toEqual([429, 429]);
  const withRight = await ws.session.post(SEND, body, { 'x-otp-code': code() });
  expect(withRight.statusCode).toBe(429);
  expect(await ws.coins('USDT')).toMatchObject({ available: '10000000' });
});
