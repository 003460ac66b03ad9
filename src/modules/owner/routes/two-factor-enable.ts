import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { OtpCode } from '../schemas.ts';
import { enableTwoFactor } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/2fa/enable',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['owner'],
        summary: 'Turn TOTP two-factor on by proving a current code',
        security: [{ bearer: [] }],
        body: Type.Object({ otp_code: OtpCode }),
        response: respond(Type.Object({ two_factor_enabled: Type.Boolean() })),
      },
    },
    async (request) => ({
      data: await enableTwoFactor(deps, request.sessionUser!, request.body.otp_code),
    }),
  );
}
