/** GET /pay/due/{token}: the public hosted page of a due-date charge (HTML). */
import { Type } from 'typebox';
import type { Deps } from '../../../platform/context.ts';
import { chooseLocale } from '../../../platform/hosted-page/locale.ts';
import {
  HTML_PAGE_EXAMPLE,
  htmlPage,
  newNonce,
  PUBLIC_SECURITY,
  pageCsp,
  publicRouteOptions,
} from '../../../platform/hosted-page/public-route.ts';
import type { App } from '../../../platform/schema.ts';
import { dueChargeForPage } from '../due-checkout.ts';
import { renderDueChargeNotFound, renderDueChargePage } from '../due-checkout-page.ts';

const Params = Type.Object({
  token: Type.String({
    minLength: 1,
    maxLength: 128,
    description: 'The last part of the charge’s checkout_url: a signed token, not the charge id.',
  }),
});

const Query = Type.Object({
  lang: Type.Optional(
    Type.String({
      maxLength: 16,
      description:
        'pt-BR or en (pt, en-US… too): the page’s language, over Accept-Language; any other value is ignored.',
    }),
  ),
});

export default function route(app: App, deps: Deps) {
  app.get(
    '/pay/due/:token',
    {
      ...publicRouteOptions(deps, ['not_found']),
      schema: {
        tags: ['checkout'],
        summary: 'The hosted page of a PIX charge with a due date (HTML, public, pt-BR or English)',
        description:
          'Public, no credentials: the page a due-date charge’s checkout_url opens. While the charge can be paid it shows whom the debtor pays, the debtor (document masked), the due date, the amount due today (São Paulo; the sandbox clock’s day in sandbox) with its parts (original, fine, interest, rebate, discount), as GET /pix/due-charges/{id} computes it, and the BR Code with its QR image. Paid, it says so; past its last payable day, expired or cancelled it says it can no longer be paid and shows no code (410). A token that names no charge answers a 404 page. pt-BR by default, English by Accept-Language or ?lang=en.',
        security: [...PUBLIC_SECURITY],
        params: Params,
        querystring: Query,
        response: {
          200: htmlPage('the charge’s page: payable today (with its BR Code), or paid', HTML_PAGE_EXAMPLE),
          404: htmlPage('the token names no due-date charge'),
          410: htmlPage('the charge can no longer be paid: past its last payable day, expired or cancelled'),
        },
      },
    },
    async (request, reply) => {
      const locale = chooseLocale(request.headers['accept-language'], request.query.lang);
      const nonce = newNonce();
      const found = await dueChargeForPage(deps, request.params.token);
      reply.type('text/html; charset=utf-8').header('vary', 'Accept-Language');
      if (!found)
        return reply
          .code(404)
          .header('content-security-policy', pageCsp(nonce, { scripts: false }))
          .send(renderDueChargeNotFound(locale, nonce));
      const { page, scripts } = renderDueChargePage(found, locale, nonce);
      const ended = ['expired', 'cancelled', 'closed'].includes(found.state);
      return reply
        .code(ended ? 410 : 200)
        .header('content-security-policy', pageCsp(nonce, { scripts }))
        .send(page);
    },
  );
}
