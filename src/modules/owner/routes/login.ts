import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { setSessionCookie } from '../cookie.ts';
import { LoginResult, OtpCode } from '../schemas.ts';
import { login } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/login',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['owner'],
        summary: 'Log in; otp_code is required once 2FA is on',
        security: [],
        body: Type.Object({
          email: Type.String({ minLength: 1, maxLength: 254 }),
          password: Type.String({ minLength: 1, maxLength: 256 }),
          otp_code: Type.Optional(OtpCode),
        }),
        response: respond(LoginResult),
      },
    },
    async (request, reply) => {
      const result = await app.loginThrottle.guard(request.body.email, request.ip, () =>
        login(deps, request.body),
      );
      setSessionCookie(request, reply, result.session_token, result.expires_at);
      return { data: result };
    },
  );
}
