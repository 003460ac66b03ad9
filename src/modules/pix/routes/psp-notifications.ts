import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { fromOurPsp } from '../notifications/authenticate.ts';
import { PSP_NOTIFICATION, receivePixNotification } from '../notifications/receive.ts';

const Receipt = Type.Object({
  received: Type.Integer({ description: 'items in the notification' }),
  settled: Type.Integer({ description: 'items that moved money now' }),
});

const Query = Type.Object({
  hmac: Type.Optional(
    Type.String({ maxLength: 200, description: 'the PIX_WEBHOOK_SECRET registered with the PSP' }),
  ),
  ignorar: Type.Optional(Type.String({ maxLength: 200, description: 'where the PSP appends /pix; ignored' })),
});

/**
 * The live PSP's callback (API Pix: POST {webhookUrl}/pix with {"pix": [...]}). Registered with and
 * without the /pix the PSP appends, since the secret's query string can absorb it.
 */
export default function route(app: App, deps: Deps) {
  for (const url of ['/v1/psp/pix/notifications', '/v1/psp/pix/notifications/pix']) {
    app.post(
      url,
      {
        config: {
          auth: 'none',
          errors: ['not_found', 'missing_credentials', 'invalid_credentials', 'invalid_state'],
        },
        schema: {
          tags: ['pix'],
          summary: 'Live PSP notifications: PIX received on a charge, refund and payout outcomes',
          description:
            'Called by the PSP, not by clients. Authenticated by the hmac query secret (constant-time). Every item is recorded; money moves only once the PSP API confirms it, once per endToEndId. Unknown or malformed items are answered 200 and move nothing.',
          security: [],
          querystring: Query,
          body: Type.Unknown({
            description: 'the API Pix callback body: {"pix": [...]}',
            examples: [
              {
                pix: [
                  {
                    endToEndId: 'E12345678202611260300abcdef12345',
                    txid: 'LASTRO7f3a9c0194f3a27c1e7b3a9d',
                    valor: '150.00',
                    horario: '2026-11-26T03:05:10.000Z',
                  },
                ],
              },
            ],
          }),
          response: respond(Receipt, { example: { received: 1, settled: 1 } }),
        },
      },
      async (request) => {
        if (!deps.config.pix.bcb) throw notFound('Route');
        if (request.query.hmac === undefined) {
          throw new AppError(
            'missing_credentials',
            'A PSP notification carries the webhook secret as ?hmac=.',
          );
        }
        if (!fromOurPsp(deps.config, request.query.hmac)) {
          throw new AppError('invalid_credentials', 'The webhook secret does not match.');
        }
        const { received, settled, setAside } = await receivePixNotification(deps, request.body);
        if (setAside?.length)
          request.log.error(
            { alert: 'set_aside', source: PSP_NOTIFICATION, items: setAside },
            'PSP notification items set aside',
          );
        return { data: { received, settled } };
      },
    );
  }
}
