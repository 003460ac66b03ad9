import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { type App, Name, respond } from '../../../platform/schema.ts';
import { setSessionCookie } from '../cookie.ts';
import { Email, Password, SignupResult } from '../schemas.ts';
import { signup } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/signup',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['owner'],
        summary: 'Create an owner account, its workspace and a session',
        security: [],
        body: Type.Object({
          email: Email,
          password: Password,
          workspace_name: Name(120),
        }),
        response: respond(SignupResult),
      },
    },
    async (request, reply) => {
      const result = await signup(deps, request.body);
      setSessionCookie(request, reply, result.session_token, result.expires_at);
      return { data: result };
    },
  );
}
