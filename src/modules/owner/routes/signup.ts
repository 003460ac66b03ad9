import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { type App, Name, respond } from '../../../platform/schema.ts';
import { WORKSPACE_EXAMPLE } from '../../workspace/schemas.ts';
import { setSessionCookie } from '../cookie.ts';
import { Email, Password, SESSION_TOKEN_EXAMPLE, SignupResult, USER_EXAMPLE } from '../schemas.ts';
import { signup } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/signup',
    {
      config: { auth: 'none', errors: ['conflict'] },
      schema: {
        tags: ['owner'],
        summary: 'Create an owner account, its workspace and a session',
        description:
          'Creates an owner account and its first workspace (sandbox on, production off) and logs in: the answer carries a session token for the dashboard routes. An e-mail already in use is 409 conflict.',
        security: [],
        body: Type.Object(
          {
            email: Email,
            password: Password,
            workspace_name: Name(120, { description: 'The name of the first workspace.' }),
          },
          {
            examples: [
              { email: 'ana@acme.com.br', password: 'a long passphrase', workspace_name: 'Ana Pagamentos' },
            ],
          },
        ),
        response: respond(SignupResult, {
          example: {
            user: USER_EXAMPLE,
            workspace: { ...WORKSPACE_EXAMPLE, production_enabled: false },
            session_token: SESSION_TOKEN_EXAMPLE,
            expires_at: '2026-11-27T12:00:00.000Z',
          },
        }),
      },
    },
    async (request, reply) => {
      const result = await signup(deps, request.body);
      setSessionCookie(request, reply, result.session_token, result.expires_at);
      return { data: result };
    },
  );
}
