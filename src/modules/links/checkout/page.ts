/** The hosted checkout page and the page shown for a link that takes no payment. */
import { html, jsonBlock, type SafeHtml } from '../../../platform/hosted-page/html.ts';
import {
  brCodeBlock,
  COPY_BUTTON_SCRIPT,
  merchantLine,
  pageAsset,
  renderPage,
} from '../../../platform/hosted-page/layout.ts';
import type { Locale } from '../../../platform/hosted-page/locale.ts';
import { formatBrl } from '../../../platform/hosted-page/money.ts';
import type { LinkStatus } from '../schemas.ts';
import { type Messages, messagesFor } from './i18n.ts';

const SCRIPT = pageAsset(new URL('./client.js', import.meta.url));

/** How often the page asks whether the payment has arrived. */
export const POLL_MS = 2000;

export interface PageLink {
  slug: string;
  /** Whom the payer pays: the workspace's display name. */
  merchantName: string;
  /** A sandbox link's page says it is a test: nothing paid there is real money. */
  sandbox: boolean;
  title: string | null;
  description: string | null;
  amountMinor: bigint | null;
  allowCustomAmount: boolean;
  design: { brand_color?: unknown; background_color?: unknown };
}

type Attributes = Record<string, string | true>;

const attributes = (attrs: Attributes) =>
  Object.entries(attrs).map(([name, value]) => (value === true ? html` ${name}` : html` ${name}="${value}"`));

/** A labelled input with its hint and its (hidden until needed) error, tied by aria-describedby. */
function field(id: string, label: string, attrs: Attributes, hint?: string): SafeHtml {
  const describedBy = hint ? `${id}-hint ${id}-error` : `${id}-error`;
  return html`<div class="field">
<label for="${id}">${label}</label>
<input id="${id}" aria-describedby="${describedBy}"${attributes(attrs)}>
${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
<p class="error" id="${id}-error" hidden></p>
</div>`;
}

export function renderCheckoutPage(link: PageLink, locale: Locale, nonce: string): string {
  const t = messagesFor(locale);
  const title = link.title ?? t.pageTitle;
  const amount = link.allowCustomAmount
    ? field(
        'amount',
        t.amount,
        {
          name: 'amount',
          inputmode: 'decimal',
          autocomplete: 'transaction-amount',
          required: true,
          value: link.amountMinor === null ? '' : formatBrl(link.amountMinor, locale).replace(/^R\$\s?/, ''),
        },
        t.amountHint,
      )
    : '';
  const body = html`<header class="brand">
${merchantLine(link.merchantName, t)}
<h1>${title}</h1>
</header>
<div class="panel">
${link.description ? html`<p class="description">${link.description}</p>` : ''}
${!link.allowCustomAmount && link.amountMinor !== null ? html`<p class="amount" id="amount-display">${formatBrl(link.amountMinor, locale)}</p>` : ''}
<noscript><p class="error">${t.noscript}</p></noscript>
<form id="checkout-form" novalidate>
${amount}
${field('payer-name', t.name, { name: 'name', autocomplete: 'name', maxlength: '140', required: true })}
${field(
  'payer-document',
  t.document,
  {
    name: 'document',
    autocomplete: 'off',
    autocapitalize: 'characters',
    spellcheck: 'false',
    maxlength: '32',
    required: true,
  },
  t.documentHint,
)}
<button type="submit" id="submit">${t.submit}</button>
<p class="error" id="form-error" role="alert" hidden></p>
</form>
<section id="result" hidden aria-labelledby="result-title">
<h2 id="result-title" tabindex="-1">${t.scan}</h2>
${brCodeBlock(t)}
<p class="muted">${t.validUntil} <span id="valid-until"></span></p>
<p class="status" id="status" role="status" aria-live="polite" data-state="waiting"></p>
</section>
</div>`;
  const data = { slug: link.slug, locale, pollMs: POLL_MS, messages: clientMessages(t) };
  return renderPage({
    locale,
    nonce,
    design: link.design,
    sandbox: link.sandbox,
    title,
    body,
    data: html`<script type="application/json" id="checkout-data">${jsonBlock(data)}</script>`,
    scripts: [COPY_BUTTON_SCRIPT, SCRIPT],
  });
}

/** The messages the page's script shows, and only those: the rest stay server-side. */
const CLIENT_MESSAGES = [
  'invalidName',
  'invalidDocument',
  'missingDocument',
  'invalidAmount',
  'failedToStart',
  'waiting',
  'paid',
  'expired',
  'failed',
  'submit',
  'working',
] as const satisfies readonly (keyof Messages)[];

const clientMessages = (t: Messages) =>
  Object.fromEntries(CLIENT_MESSAGES.map((key) => [key, t[key]])) as Pick<
    Messages,
    (typeof CLIENT_MESSAGES)[number]
  >;

/** A clear page for a link that takes no payment: unknown, inactive, expired, or live with production off. */
export function renderUnavailablePage(
  reason: 'unknown' | Exclude<LinkStatus, 'active'> | 'production_off',
  locale: Locale,
  nonce: string,
  link?: Pick<PageLink, 'title' | 'design' | 'merchantName' | 'sandbox'>,
): string {
  const t = messagesFor(locale);
  const message = {
    unknown: t.unknownLink,
    inactive: t.inactiveLink,
    expired: t.expiredLink,
    production_off: t.productionOffLink,
  }[reason];
  const body = html`<header class="brand">
${link ? merchantLine(link.merchantName, t) : ''}
<p>${link?.title ?? t.payWithPix}</p>
<h1>${t.unavailable}</h1>
</header>
<div class="panel"><p id="unavailable-reason">${message}</p></div>`;
  const { design, sandbox } = link ?? { design: {}, sandbox: false };
  return renderPage({ locale, nonce, design, sandbox, title: t.unavailable, body });
}
