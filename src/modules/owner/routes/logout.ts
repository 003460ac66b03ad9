import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { clearSessionCookie } from '../cookie.ts';
import { logout } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/logout',
    {
      config: { auth: 'user', errors: [] },
      schema: {
        tags: ['owner'],
        summary: 'End the current session',
        description:
          'Ends the session of the request at once (its token stops working) and clears the session cookie.',
        security: [{ bearer: [] }],
        response: respond(
          Type.Object({ logged_out: Type.Boolean({ description: 'Always true: the session is over.' }) }),
          { example: { logged_out: true } },
        ),
      },
    },
    async (request, reply) => {
      await logout(deps, request.sessionUser!);
      clearSessionCookie(reply);
      return { data: { logged_out: true } };
    },
  );
}
