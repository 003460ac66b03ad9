import { Type } from 'typebox';
import { ACTION_CODES } from '../../../platform/auth/login-throttle.ts';
import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { OtpOrRecoveryCode, RECOVERY_CODES_EXAMPLE, RecoveryCodes } from '../schemas.ts';
import { regenerateRecoveryCodes } from '../service.ts';

export interface RegenerateRecoveryCodesRequest {
  otp_code: string;
}
export interface RegenerateRecoveryCodesResponse {
  data: { recovery_codes: string[] };
}

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/2fa/recovery-codes',
    {
      config: { auth: 'user', errors: ['otp_invalid', 'invalid_state'] },
      schema: {
        tags: ['owner'],
        summary: 'Make a new set of 2FA recovery codes; the old set stops working',
        description:
          'For an owner with two-factor authentication on: proves a current authenticator code (or an unused recovery code, which this spends) and answers 10 new recovery codes, shown only here. Every code of the previous set stops working at once. Each recovery code logs in once, sent as otp_code of POST /v1/auth/login. Audited as user.recovery_codes_regenerated in each of the owner’s workspaces. Errors: 401 otp_invalid (a wrong, expired or used code), 422 invalid_state (2FA is off), 429 rate_limited (too many wrong codes for this owner or address; Retry-After says when to try again).',
        security: [{ bearer: [] }],
        body: Type.Object({ otp_code: OtpOrRecoveryCode }, { examples: [{ otp_code: '492039' }] }),
        response: respond(Type.Object({ recovery_codes: RecoveryCodes }), {
          example: { recovery_codes: RECOVERY_CODES_EXAMPLE },
        }),
      },
    },
    // Wrong codes count as a crypto send's do: a stolen session must not get unlimited guesses at a
    // code that would hand it a fresh set of recovery codes.
    async (request) => {
      const session = request.sessionUser!;
      const proof = () => regenerateRecoveryCodes(deps, session, request.body.otp_code);
      return { data: await app.loginThrottle.guard(session.userId, request.ip, proof, ACTION_CODES) };
    },
  );
}
