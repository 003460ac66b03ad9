import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { OtpCode, RECOVERY_CODES_EXAMPLE, RecoveryCodes } from '../schemas.ts';
import { enableTwoFactor } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/2fa/enable',
    {
      config: { auth: 'user', errors: ['otp_invalid', 'invalid_state', 'conflict'] },
      schema: {
        tags: ['owner'],
        summary: 'Turn TOTP two-factor on by proving a current code',
        description:
          'Proves the authenticator app holds the secret of POST /v1/auth/2fa/setup by a current code, and turns two-factor authentication on: from then on login asks for otp_code. Answers 10 recovery codes, shown only here, each good once at login instead of an authenticator code. Errors: 401 otp_invalid (a wrong or expired code), 422 invalid_state (setup not called), 409 conflict (2FA already on).',
        security: [{ bearer: [] }],
        body: Type.Object({ otp_code: OtpCode }, { examples: [{ otp_code: '492039' }] }),
        response: respond(
          Type.Object({
            two_factor_enabled: Type.Boolean({ description: 'true: 2FA is on from now' }),
            recovery_codes: RecoveryCodes,
          }),
          { example: { two_factor_enabled: true, recovery_codes: RECOVERY_CODES_EXAMPLE } },
        ),
      },
    },
    async (request) => ({
      data: await enableTwoFactor(deps, request.sessionUser!, request.body.otp_code),
    }),
  );
}
