/**
 * A one-time code on a crypto send is good once (RFC 6238 §5.2): a second send with the code that
 * already sent, one after the other or at the same moment, is 401 otp_invalid and sends nothing. A
 * wrong code leaves an audit entry, and too many of them are refused as one-time codes, not logins.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type CryptoWorkspace, cryptoWorkspace, OUTSIDE, SEND } from '../crypto/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let ws: CryptoWorkspace;
let code: () => string;
const body = { amount_minor: '1000000', to_address: OUTSIDE.evm, network: 'polygon', currency: 'USDT' };
const sent = async () =>
  (await ws.session.get('/v1/sandbox/payments?limit=100'))
    .json()
    .data.filter((p: { kind: string }) => p.kind === 'crypto_send').length;
const otpFailures = async () =>
  (await ws.session.get('/v1/sandbox/audit-events?limit=100'))
    .json()
    .data.filter((e: { action: string }) => e.action === 'crypto.send_otp_failed');

beforeAll(async () => {
  ctx = await startTestApp();
  ws = await cryptoWorkspace(ctx, 'Codigo Unico');
  const wallet = await ws.wallet('polygon');
  await ws.deposit(wallet.id, '10000000');
  code = await ws.enableTwoFactor();
});
afterAll(() => ctx.close());

it('a code that sent once is refused on the next send, and nothing more is sent', async () => {
  ctx.clock.advance(30_000);
  const once = code();
  const first = await ws.session.post(SEND, body, { 'x-otp-code': once, 'idempotency-key': 'once-a' });
  expect(first.statusCode, first.body).toBe(200);
  const again = await ws.session.post(SEND, body, { 'x-otp-code': once, 'idempotency-key': 'once-b' });
  expect(again.statusCode, again.body).toBe(401);
  expect(again.json().error).toBe('otp_invalid');
  expect(await sent()).toBe(1);
  // The next step's code is a new code.
  ctx.clock.advance(30_000);
  const next = await ws.session.post(SEND, body, { 'x-otp-code': code(), 'idempotency-key': 'once-c' });
  expect(next.statusCode, next.body).toBe(200);
  expect(await sent()).toBe(2);
});

it('a code accepted from the next step (clock drift) retires the current step’s code', async () => {
  ctx.clock.advance(30_000);
  const current = code();
  ctx.clock.advance(30_000);
  const ahead = code();
  ctx.clock.advance(-30_000);
  const early = await ws.session.post(SEND, body, { 'x-otp-code': ahead, 'idempotency-key': 'drift-a' });
  expect(early.statusCode, early.body).toBe(200);
  const late = await ws.session.post(SEND, body, { 'x-otp-code': current, 'idempotency-key': 'drift-b' });
  expect(late.statusCode, late.body).toBe(401);
  expect(late.json().error).toBe('otp_invalid');
});

it('concurrent sends with one code: exactly one sends', async () => {
  ctx.clock.advance(60_000);
  const shared = code();
  const before = await sent();
  const answers = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      ws.session.post(SEND, body, { 'x-otp-code': shared, 'idempotency-key': `race-${i}` }),
    ),
  );
  const statuses = answers.map((res) => res.statusCode).sort();
  expect(statuses).toEqual([200, 401, 401, 401, 401, 401]);
  expect(await sent()).toBe(before + 1);
});

it('a retry of a send with its Idempotency-Key and its code replays the send, and sends nothing more', async () => {
  ctx.clock.advance(60_000);
  const once = code();
  const headers = { 'x-otp-code': once, 'idempotency-key': 'retry-after-lost-answer' };
  const first = await ws.session.post(SEND, body, headers);
  expect(first.statusCode, first.body).toBe(200);
  const before = await sent();
  // The answer was lost on the way: the dashboard sends the same request again.
  const retry = await ws.session.post(SEND, body, headers);
  expect(retry.statusCode, retry.body).toBe(200);
  expect(retry.json().data.id).toBe(first.json().data.id);
  expect(await sent()).toBe(before);
  // The key does not make the code good for another send.
  const other = await ws.session.post(SEND, body, { ...headers, 'idempotency-key': 'another-send' });
  expect(other.statusCode, other.body).toBe(401);
});

it('a wrong code is audited, and too many are refused as one-time codes, not as logins', async () => {
  ctx.clock.advance(60_000);
  const right = code();
  const wrong = String((Number(right) + 1) % 1_000_000).padStart(6, '0');
  const before = (await otpFailures()).length;
  const refused = await ws.session.post(SEND, body, { 'x-otp-code': wrong });
  expect(refused.json().error).toBe('otp_invalid');
  const entries = await otpFailures();
  expect(entries).toHaveLength(before + 1);
  expect(entries[0]).toMatchObject({ actor_type: 'user', actor_id: ws.owner.userId });
  let last = refused;
  for (let i = 0; i < 12 && last.statusCode !== 429; i++)
    last = await ws.session.post(SEND, body, { 'x-otp-code': wrong });
  expect(last.statusCode).toBe(429);
  expect(last.json().message).toMatch(/^Too many wrong one-time codes; retry in \d+ s\.$/);
});
