import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { setupTwoFactor } from '../service.ts';

export default function route(app: App, deps: Deps) {
  app.post(
    '/v1/auth/2fa/setup',
    {
      config: { auth: 'user', errors: ['conflict'] },
      schema: {
        tags: ['owner'],
        summary: 'Start TOTP two-factor setup: returns the secret to load into an authenticator app',
        description:
          'Makes a new TOTP secret for the account and answers it, as text and as an otpauth:// URL to show as a QR code. 2FA is on only after POST /v1/auth/2fa/enable proves a code. Already on is 409 conflict.',
        security: [{ bearer: [] }],
        response: respond(
          Type.Object({
            secret: Type.String({
              description: 'The TOTP secret, base32: type it into an authenticator app.',
            }),
            otpauth_url: Type.String({
              description: 'The same secret as an otpauth:// URL, to show as a QR code.',
            }),
          }),
          {
            example: {
              secret: 'JBSWY3DPEHPK3PXP',
              otpauth_url: 'otpauth://totp/Lastro:ana%40acme.com.br?secret=JBSWY3DPEHPK3PXP&issuer=Lastro',
            },
          },
        ),
      },
    },
    async (request) => ({ data: await setupTwoFactor(deps, request.sessionUser!) }),
  );
}
