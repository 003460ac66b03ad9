/** The hosted checkout page and the page shown for a link that takes no payment. */
import { readFileSync } from 'node:fs';
import type { LinkStatus } from '../schemas.ts';
import { paletteOf } from './colours.ts';
import { html, jsonBlock, SafeHtml } from './html.ts';
import { type Locale, type Messages, messagesFor } from './i18n.ts';
import { formatBrl } from './money.ts';

// Our own files, not data: they go into the page as they are (neither can hold a closing tag).
const STYLE = readFileSync(new URL('./style.css', import.meta.url), 'utf8');
const SCRIPT = readFileSync(new URL('./client.js', import.meta.url), 'utf8');
if (/<\/(style|script)/i.test(STYLE + SCRIPT))
  throw new Error('checkout assets must not close their element');

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

function layout(
  locale: Locale,
  nonce: string,
  link: Pick<PageLink, 'design' | 'sandbox'>,
  title: string,
  body: SafeHtml,
  script?: SafeHtml,
): string {
  const design = link.design;
  const palette = paletteOf(design);
  // Every value in this rule passed paletteOf's #rrggbb check: nothing else can reach the CSS.
  const colours = `:root{--brand:${palette.brand};--brand-fg:${palette.brandText};--bg:${palette.background};--fg:${palette.text}}`;
  return `<!doctype html>${html`<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${title}</title>
<style nonce="${nonce}">${new SafeHtml(`${colours}\n${STYLE}`)}</style>
</head>
<body>
<main class="card">
${link.sandbox ? html`<p class="test-mark" id="test-mark" role="note">${messagesFor(locale).testMark}</p>` : ''}
${body}
</main>
${script ?? ''}
</body>
</html>`}`;
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
${merchant(link.merchantName, t)}
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
<img class="qr" id="qr" alt="${t.qrAlt}" width="320" height="320">
<div class="field">
<label for="brcode">${t.copyLabel}</label>
<textarea id="brcode" rows="6" readonly></textarea>
</div>
<button type="button" id="copy">${t.copy}</button>
<p class="muted" id="copy-status" role="status"></p>
<p class="muted">${t.validUntil} <span id="valid-until"></span></p>
<p class="status" id="status" role="status" aria-live="polite" data-state="waiting"></p>
</section>
</div>`;
  const data = { slug: link.slug, locale, pollMs: POLL_MS, messages: clientMessages(t) };
  const script = html`<script type="application/json" id="checkout-data">${jsonBlock(data)}</script>
<script nonce="${nonce}">${new SafeHtml(SCRIPT)}</script>`;
  return layout(locale, nonce, link, title, body, script);
}

/** Whom the payer pays, over the title: "Pagamento via PIX para <name>", or without a name. */
const merchant = (name: string, t: Messages) =>
  name
    ? html`<p>${t.payWithPixTo} <strong id="merchant-name">${name}</strong></p>`
    : html`<p>${t.payWithPix}</p>`;

/** The messages the page's script shows, and only those: the rest stay server-side. */
const CLIENT_MESSAGES = [
  'invalidName',
  'invalidDocument',
  'missingDocument',
  'invalidAmount',
  'failedToStart',
  'copied',
  'copyFailed',
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
${link ? merchant(link.merchantName, t) : ''}
<p>${link?.title ?? t.payWithPix}</p>
<h1>${t.unavailable}</h1>
</header>
<div class="panel"><p id="unavailable-reason">${message}</p></div>`;
  return layout(locale, nonce, link ?? { design: {}, sandbox: false }, t.unavailable, body);
}
