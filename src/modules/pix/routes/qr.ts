import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { notFound } from '../../../platform/errors.ts';
import { contextOf } from '../../../platform/request-context.ts';
import { type App, EnvIdParams, ErrorBody } from '../../../platform/schema.ts';
import { getPayment } from '../../payments/service.ts';
import { qrPng, qrSvg } from '../qr-image.ts';

const FORMATS = {
  png: {
    type: 'image/png',
    render: async (text: string) => qrPng(text),
    example: '(the PNG image: 89 50 4E 47 0D 0A 1A 0A …)',
  },
  svg: {
    type: 'image/svg+xml',
    render: qrSvg,
    example: '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 37 37">…</svg>',
  },
} as const;

export default function route(app: App, deps: Deps) {
  for (const [extension, format] of Object.entries(FORMATS)) {
    app.get(
      `/v1/:env/payments/:id/qr.${extension}`,
      {
        config: { auth: 'any', subaccount: true, record: 'payment', errors: ['not_found'] },
        schema: {
          tags: ['pix'],
          summary: `The charge's BR Code as a QR image (${extension.toUpperCase()})`,
          description: `The BR Code of a PIX charge (its pix_qr_code) drawn as a QR code in ${extension.toUpperCase()}, for the payer to scan. A payment without a BR Code is 404.`,
          params: EnvIdParams,
          response: {
            200: {
              description: 'QR image',
              content: {
                [format.type]: {
                  schema: Type.String({ contentMediaType: format.type }),
                  example: format.example,
                },
              },
            },
            '4xx': ErrorBody,
            '5xx': ErrorBody,
          },
        },
      },
      async (request, reply) => {
        const payment = await getPayment(deps.db, contextOf(deps, request), { id: request.params.id });
        if (!payment.pix_qr_code) throw notFound('QR code of this payment');
        const image = await format.render(payment.pix_qr_code);
        return reply.type(format.type).send(image as unknown as string);
      },
    );
  }
}
