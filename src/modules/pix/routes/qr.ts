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
  },
  svg: { type: 'image/svg+xml', render: qrSvg },
} as const;

export default function route(app: App, deps: Deps) {
  for (const [extension, format] of Object.entries(FORMATS)) {
    app.get(
      `/v1/:env/payments/:id/qr.${extension}`,
      {
        config: { auth: 'any', subaccount: true, record: 'payment' },
        schema: {
          tags: ['pix'],
          summary: `The charge's BR Code as a QR image (${extension.toUpperCase()})`,
          params: EnvIdParams,
          response: {
            200: {
              description: 'QR image',
              content: { [format.type]: { schema: Type.String({ contentMediaType: format.type }) } },
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
