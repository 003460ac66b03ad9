import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { setupTwoFactor } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/2fa/setup',
    {
      config: { auth: 'user' },
      schema: {
        tags: ['owner'],
        summary: 'Start TOTP two-factor setup: returns the secret to load into an authenticator app',
        security: [{ bearer: [] }],
        response: respond(Type.Object({ secret: Type.String(), otpauth_url: Type.String() })),
      },
    },
    async (request) => ({ data: await setupTwoFactor(deps, request.sessionUser!) }),
  );
}
