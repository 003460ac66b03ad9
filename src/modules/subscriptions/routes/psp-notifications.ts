import { Type } from 'typebox';
import { fromOurPsp } from '../../../platform/auth/psp-secret.ts';
import type { Deps } from '../../../platform/context.ts';
import { AppError, notFound } from '../../../platform/errors.ts';
import { type App, respond } from '../../../platform/schema.ts';
import { AUTOMATIC_NOTIFICATION, receiveAutomaticNotification } from '../notifications.ts';

const Receipt = Type.Object({
  received: Type.Integer({ description: 'items in the notification' }),
  matched: Type.Integer({ description: 'items naming one of our live subscriptions' }),
  applied: Type.Integer({
    description: 'changes made now: a status moved, a cycle credited, failed or retried',
  }),
});

const Query = Type.Object({
  hmac: Type.Optional(
    Type.String({ maxLength: 200, description: 'the PIX_WEBHOOK_SECRET registered with the PSP' }),
  ),
  ignorar: Type.Optional(
    Type.String({ maxLength: 200, description: 'where the PSP appends /rec or /cobr; ignored' }),
  ),
});

/**
 * The live PSP's Pix Automático callbacks (API Pix: POST {webhookUrl}/rec with {"recs": [...]}, POST
 * {webhookUrl}/cobr with {"cobsr": [...]}), registered by PUT /webhookrec and /webhookcobr with our
 * PIX notification URL + /automatico. Answered also on /rec and /cobr for a PSP that appends them
 * to the path; the body, not the path, says which it is.
 */
export default function route(app: App, deps: Deps) {
  const base = '/v1/psp/pix/notifications/automatico';
  for (const url of [base, `${base}/rec`, `${base}/cobr`]) {
    app.post(
      url,
      {
        config: {
          auth: 'none',
          errors: ['not_found', 'missing_credentials', 'invalid_credentials'],
        },
        schema: {
          tags: ['subscriptions'],
          summary: 'Live PSP notifications: Pix Automático recurrences and recurring charges',
          description:
            'Called by the PSP, not by clients. Authenticated by the hmac query secret (constant-time), as the PIX callback. Each item names a recurrence (idRec) or a cycle’s charge (txid): the subscription is brought up to date from the PSP’s API at once (GET /rec, GET /cobr), as the cycle task’s poll would: approvals, refusals, cancellations by the payer, cycles paid, attempts rejected. Applying an item twice changes nothing. Unknown or malformed items are answered 200 and change nothing; an item the PSP’s API cannot confirm now (it is down, or its answer cannot be read) is set aside for an operator and the rest are applied, the cycle task’s poll bringing its subscription up to date later.',
          security: [],
          querystring: Query,
          body: Type.Unknown({
            description: 'the API Pix callback body: {"recs": [...]} or {"cobsr": [...]}',
            examples: [
              {
                cobsr: [
                  {
                    idRec: 'RR1234567820240115abcdefghijk',
                    txid: '3136957d93134f2184b369e8f1c0729d',
                    status: 'ATIVA',
                    tentativas: [
                      {
                        dataLiquidacao: '2027-01-10',
                        tipo: 'AGND',
                        status: 'REJEITADA',
                        endToEndId: 'E12345678202701101221abcdef12345',
                        rejeicao: { codigo: 'AM02', descricao: 'Valor não permitido' },
                      },
                    ],
                  },
                ],
              },
            ],
          }),
          response: respond(Receipt, { example: { received: 1, matched: 1, applied: 1 } }),
        },
      },
      async (request) => {
        if (!deps.config.pix.bcb) throw notFound('Route');
        if (request.query.hmac === undefined)
          throw new AppError(
            'missing_credentials',
            'A PSP notification carries the webhook secret as ?hmac=.',
          );
        if (!fromOurPsp(deps.config, request.query.hmac))
          throw new AppError('invalid_credentials', 'The webhook secret does not match.');
        const { setAside, ...receipt } = await receiveAutomaticNotification(deps, request.body);
        if (setAside.length)
          request.log.error(
            { alert: 'set_aside', source: AUTOMATIC_NOTIFICATION, items: setAside },
            'PSP Pix Automático notification items set aside',
          );
        return { data: receipt };
      },
    );
  }
}
