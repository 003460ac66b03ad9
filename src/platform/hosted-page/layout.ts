/**
 * The frame every hosted page (/pay/…) shares: the document, the merchant's colours, the stylesheet,
 * the sandbox mark, whom the payer pays, and the BR Code block with its copy button.
 */
import { readFileSync } from 'node:fs';
import { paletteOf } from './colours.ts';
import { html, SafeHtml } from './html.ts';
import type { Locale } from './locale.ts';
import { type PageMessages, pageMessagesFor } from './messages.ts';

/** One of our own files for a page's <style> or <script>: it goes in as it is, so it may not close its element. */
export function pageAsset(url: URL): string {
  const text = readFileSync(url, 'utf8');
  if (/<\/(style|script)/i.test(text)) throw new Error(`${url.pathname} must not close its element`);
  return text;
}

const STYLE = pageAsset(new URL('./style.css', import.meta.url));
/** The copy button's script: a page with brCodeBlock lists it among its scripts. */
export const COPY_BUTTON_SCRIPT = pageAsset(new URL('./copy.js', import.meta.url));

export interface PageFrame {
  locale: Locale;
  /** The nonce the page's CSP names (public-route.ts's pageCsp): only its style and scripts run. */
  nonce: string;
  /** The merchant's colours, checked by paletteOf; {} for the defaults. */
  design: { brand_color?: unknown; background_color?: unknown };
  /** A sandbox page says it is a test: nothing paid there is real money. */
  sandbox: boolean;
  title: string;
  body: SafeHtml;
  /** Our own scripts' sources (pageAsset), each in its own nonce-bearing element, after the body. */
  scripts?: readonly string[];
  /** What the scripts read (a JSON block, for instance), placed before them. */
  data?: SafeHtml;
}

export function renderPage(frame: PageFrame): string {
  const { locale, nonce } = frame;
  const palette = paletteOf(frame.design);
  // Every value in this rule passed paletteOf's #rrggbb check: nothing else can reach the CSS.
  const colours = `:root{--brand:${palette.brand};--brand-fg:${palette.brandText};--bg:${palette.background};--fg:${palette.text}}`;
  const scripts = (frame.scripts ?? []).map(
    (source) => html`<script nonce="${nonce}">${new SafeHtml(source)}</script>`,
  );
  return `<!doctype html>${html`<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${frame.title}</title>
<style nonce="${nonce}">${new SafeHtml(`${colours}\n${STYLE}`)}</style>
</head>
<body>
<main class="card">
${frame.sandbox ? html`<p class="test-mark" id="test-mark" role="note">${pageMessagesFor(locale).testMark}</p>` : ''}
${frame.body}
</main>
${frame.data ?? ''}
${scripts}
</body>
</html>`}`;
}

/** Whom the payer pays, over the title: "Pagamento via PIX para <name>", or without a name. */
export const merchantLine = (name: string, t: PageMessages) =>
  name
    ? html`<p>${t.payWithPixTo} <strong id="merchant-name">${name}</strong></p>`
    : html`<p>${t.payWithPix}</p>`;

/**
 * The QR image, the copy-paste code and its copy button (COPY_BUTTON_SCRIPT drives it). A page that learns
 * the code later (the payment link's, after its form) renders it empty and fills it in.
 */
export function brCodeBlock(t: PageMessages, code?: { brCode: string; qrPngDataUrl: string }): SafeHtml {
  return html`<img class="qr" id="qr" alt="${t.qrAlt}" width="320" height="320"${code ? html` src="${code.qrPngDataUrl}"` : ''}>
<div class="field">
<label for="brcode">${t.copyLabel}</label>
<textarea id="brcode" rows="6" readonly>${code?.brCode ?? ''}</textarea>
</div>
<button type="button" id="copy" data-copied="${t.copied}" data-copy-failed="${t.copyFailed}">${t.copy}</button>
<p class="muted" id="copy-status" role="status"></p>`;
}
