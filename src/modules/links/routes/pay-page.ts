import type { Deps } from '../../../platform/context.ts';
import { pickLocale } from '../../../platform/hosted-page/locale.ts';
import {
  HTML_PAGE_EXAMPLE,
  htmlPage,
  newNonce,
  PUBLIC_SECURITY,
  pageCsp,
  publicRouteOptions,
} from '../../../platform/hosted-page/public-route.ts';
import type { App } from '../../../platform/schema.ts';
import { renderCheckoutPage, renderUnavailablePage } from '../checkout/page.ts';
import { linkForPage } from '../checkout.ts';
import { SlugParams } from '../schemas.ts';

export default function route(app: App, deps: Deps) {
  app.get(
    '/pay/:slug',
    {
      ...publicRouteOptions(deps, ['not_found', 'production_not_enabled']),
      schema: {
        tags: ['checkout'],
        summary:
          'The hosted checkout page of a payment link (HTML, public, pt-BR or English by Accept-Language)',
        description:
          'Public, no credentials: the HTML checkout page of a payment link, in pt-BR or English by Accept-Language. An unknown slug, a link that takes no payment or a live link of a workspace without production answer an HTML page with 404, 410 or 403.',
        security: [...PUBLIC_SECURITY],
        params: SlugParams,
        response: {
          200: htmlPage('the checkout page', HTML_PAGE_EXAMPLE),
          404: htmlPage('no payment link has this slug'),
          403: htmlPage("a live link whose workspace's production is off: it takes no payment"),
          410: htmlPage(
            'the link is inactive, expired or less than a minute from expiring: it takes no payment',
          ),
        },
      },
    },
    async (request, reply) => {
      const locale = pickLocale(request.headers['accept-language']);
      const nonce = newNonce();
      const found = await linkForPage(deps, request.params.slug);
      reply
        .type('text/html; charset=utf-8')
        .header('content-security-policy', pageCsp(nonce))
        .header('vary', 'Accept-Language');
      if (!found) return reply.code(404).send(renderUnavailablePage('unknown', locale, nonce));
      const { link, refusal, merchantName } = found;
      const shown = { merchantName, sandbox: link.environment === 'sandbox' };
      if (refusal) {
        const code = refusal === 'production_off' ? 403 : 410;
        return reply.code(code).send(renderUnavailablePage(refusal, locale, nonce, { ...link, ...shown }));
      }
      return reply.send(
        renderCheckoutPage(
          {
            ...shown,
            slug: link.slug,
            title: link.title,
            description: link.description,
            amountMinor: link.amount_minor,
            allowCustomAmount: link.allow_custom_amount,
            design: link.design,
          },
          locale,
          nonce,
        ),
      );
    },
  );
}
