import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { setSessionCookie } from '../cookie.ts';
import { LoginResult, OtpCode, SESSION_TOKEN_EXAMPLE, USER_EXAMPLE } from '../schemas.ts';
import { login } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/login',
    {
      config: { auth: 'none', errors: ['invalid_credentials', 'otp_required', 'otp_invalid'] },
      schema: {
        tags: ['owner'],
        summary: 'Log in; otp_code is required once 2FA is on',
        description:
          'Exchanges e-mail and password (and the authenticator code once 2FA is on) for a session token, also set as the lastro_session cookie. Wrong credentials are 401 invalid_credentials; repeated failures are throttled (429 rate_limited with Retry-After).',
        security: [],
        body: Type.Object(
          {
            email: Type.String({ minLength: 1, maxLength: 254, description: 'The e-mail of the account.' }),
            password: Type.String({ minLength: 1, maxLength: 256, description: 'Its password.' }),
            otp_code: Type.Optional(OtpCode),
          },
          { examples: [{ email: 'ana@acme.com.br', password: 'a long passphrase', otp_code: '492039' }] },
        ),
        response: respond(LoginResult, {
          example: {
            session_token: SESSION_TOKEN_EXAMPLE,
            expires_at: '2026-11-27T12:00:00.000Z',
            user: { ...USER_EXAMPLE, two_factor_enabled: true },
            workspaces: [{ id: '0194f39e-1a2b-7c3d-8e4f-5a6b7c8d9e0f', display_name: 'Acme Pagamentos' }],
          },
        }),
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
