/**
 * A login by recovery code spends the code, audits its use and opens the session as one: when the
 * audit entry cannot be written the login fails and the code still works afterwards.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { totpCode } from '../../src/platform/totp.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { type Owner, PASSWORD, signupOwner } from '../support/fixtures.ts';

let ctx: TestContext;
let owner: Owner;
let codes: string[];
const login = (otp_code: string) =>
  ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/login',
    remoteAddress: '198.51.100.21',
    payload: { email: owner.email, password: PASSWORD, otp_code },
  });

beforeAll(async () => {
  ctx = await startTestApp();
  owner = await signupOwner(ctx.app, 'Atomica');
  const auth = { authorization: `Bearer ${owner.sessionToken}` };
  const setup = await ctx.app.inject({ method: 'POST', url: '/v1/auth/2fa/setup', headers: auth });
  const enable = await ctx.app.inject({
    method: 'POST',
    url: '/v1/auth/2fa/enable',
    headers: auth,
    payload: { otp_code: totpCode(setup.json().data.secret, ctx.clock.now()) },
  });
  expect(enable.statusCode, enable.body).toBe(200);
  codes = enable.json().data.recovery_codes;
});
afterAll(() => ctx.close());

it('a recovery code whose use cannot be audited logs no one in and stays usable', async () => {
  // The audit write fails (as a dropped connection or a full disk would) for this one action.
  await ctx.db.query(`CREATE FUNCTION refuse_recovery_audit() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.action = 'user.recovery_code_used' THEN RAISE EXCEPTION 'audit unavailable'; END IF;
      RETURN NEW;
    END $$`);
  await ctx.db.query(`CREATE TRIGGER refuse_recovery_audit BEFORE INSERT ON audit_events
    FOR EACH ROW EXECUTE FUNCTION refuse_recovery_audit()`);
  const failed = await login(codes[0]!);
  expect(failed.statusCode).toBeGreaterThanOrEqual(500);
  const sessions = await ctx.db.query(
    'SELECT 1 FROM sessions s JOIN users u ON u.id = s.user_id WHERE u.email = $1',
    [owner.email],
  );
  expect(sessions.rows).toHaveLength(1);

  await ctx.db.query('DROP TRIGGER refuse_recovery_audit ON audit_events');
  const retried = await login(codes[0]!);
  expect(retried.statusCode, retried.body).toBe(200);
  const used = await ctx.db.query<{ metadata: { codes_left: number } }>(
    `SELECT metadata FROM audit_events WHERE workspace_id = $1 AND action = 'user.recovery_code_used'`,
    [owner.workspaceId],
  );
  expect(used.rows.map((row) => row.metadata)).toEqual([{ codes_left: 9 }]);
});
