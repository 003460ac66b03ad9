/**
 * The hosted page of a due-date charge: whom the debtor pays, the amount due today part by part, and
 * the BR Code while it can be paid; once paid, expired or cancelled, only what happened. It is built
 * from the frame every hosted page shares (platform/hosted-page/); what it says is below in pt-BR and
 * English.
 */
import { html, type SafeHtml } from '../../platform/hosted-page/html.ts';
import {
  brCodeBlock,
  COPY_BUTTON_SCRIPT,
  merchantLine,
  renderPage,
} from '../../platform/hosted-page/layout.ts';
import type { Locale } from '../../platform/hosted-page/locale.ts';
import { pageMessagesFor } from '../../platform/hosted-page/messages.ts';
import { formatBrl } from '../../platform/hosted-page/money.ts';
import { DEFAULT_TIME_ZONE, localDateOf } from '../../platform/time-zone.ts';
import type { DueChargeForPage } from './due-checkout.ts';
import { qrPngDataUrl } from './qr-image.ts';

const PT = {
  ...pageMessagesFor('pt-BR'),
  title: 'Cobrança',
  dueToday: 'Valor a pagar hoje',
  breakdown: 'Como o valor de hoje é calculado',
  original: 'Valor original',
  fine: 'Multa por atraso',
  interest: 'Juros',
  rebate: 'Abatimento',
  discount: 'Desconto por pagamento antecipado',
  total: 'Total hoje',
  debtor: 'Pagador',
  dueDate: 'Vencimento',
  lastPayable: 'Pode ser paga até',
  amountPaid: 'Valor pago',
  paidOn: 'Pago em',
  amountNote:
    'O valor depende do dia do pagamento: o app do seu banco o calcula na data em que você pagar. Este é o valor devido hoje.',
  noCodeYet: 'O código PIX desta cobrança ainda está sendo gerado. Recarregue a página em alguns instantes.',
  paid: 'Pagamento confirmado. Obrigado!',
  expired: 'Esta cobrança venceu e não pode mais ser paga.',
  cancelled: 'Esta cobrança foi cancelada por quem a emitiu e não pode mais ser paga.',
  closed: 'Esta cobrança não pode mais ser paga.',
  nothingDue: 'Não há valor a pagar hoje.',
  notFoundTitle: 'Cobrança não encontrada',
  notFound: 'Esta cobrança não existe. Confira o endereço com quem o enviou.',
};

type Messages = typeof PT;

const EN: Messages = {
  ...pageMessagesFor('en'),
  title: 'Bill',
  dueToday: 'Amount due today',
  breakdown: "How today's amount is worked out",
  original: 'Original amount',
  fine: 'Late fine',
  interest: 'Interest',
  rebate: 'Rebate',
  discount: 'Early payment discount',
  total: 'Total today',
  debtor: 'Payer',
  dueDate: 'Due date',
  lastPayable: 'Payable until',
  amountPaid: 'Amount paid',
  paidOn: 'Paid on',
  amountNote:
    "The amount depends on the day you pay: your bank's app works it out on the day you pay. This is the amount due today.",
  noCodeYet: "This bill's PIX code is still being issued. Reload the page in a moment.",
  paid: 'Payment confirmed. Thank you!',
  expired: 'This bill is past its last payable day and can no longer be paid.',
  cancelled: 'This bill was cancelled by whoever issued it and can no longer be paid.',
  closed: 'This bill can no longer be paid.',
  nothingDue: 'Nothing is due on this bill today.',
  notFoundTitle: 'Bill not found',
  notFound: 'This bill does not exist. Check the address with whoever sent it.',
};

const messagesFor = (locale: Locale): Messages => (locale === 'en' ? EN : PT);

/** A YYYY-MM-DD date for people: 31/12/2026, or Dec 31, 2026. */
function formatDay(day: string, locale: Locale): string {
  const format = locale === 'en' ? { dateStyle: 'medium' as const } : {};
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(locale === 'en' ? 'en-US' : 'pt-BR', {
    ...format,
    timeZone: 'UTC',
  });
}

const brl = (minor: string, locale: Locale) => formatBrl(BigInt(minor), locale);

/** The parts of today's amount (standard's componentesValor): the original, then each one not zero. */
function breakdown(charge: DueChargeForPage['charge'], t: Messages, locale: Locale): SafeHtml {
  const parts = charge.amount_due_today;
  const row = (id: string, label: string, minor: string, sign: string) =>
    html`<tr id="part-${id}"><th scope="row">${label}</th><td>${sign}${brl(minor, locale)}</td></tr>`;
  const optional = [
    ['fine', t.fine, parts.fine_minor, '+ '],
    ['interest', t.interest, parts.interest_minor, '+ '],
    ['rebate', t.rebate, parts.rebate_minor, '− '],
    ['discount', t.discount, parts.discount_minor, '− '],
  ] as const;
  return html`<table class="breakdown" id="breakdown">
<caption>${t.breakdown}</caption>
<tbody>
${row('original', t.original, parts.original_minor, '')}
${optional.filter(([, , minor]) => minor !== '0').map(([id, label, minor, sign]) => row(id, label, minor, sign))}
</tbody>
<tfoot>${row('total', t.total, charge.amount_due_today_minor, '')}</tfoot>
</table>`;
}

/** Who pays (the document masked, as the API shows it), the due date, the last payable day, and `extra`. */
function details(found: DueChargeForPage, t: Messages, locale: Locale, extra: SafeHtml[] = []): SafeHtml {
  const { charge } = found;
  const document = `${charge.debtor.document_type.toUpperCase()} ${charge.debtor.document}`;
  return html`<dl class="details">
<dt>${t.debtor}</dt><dd id="debtor">${charge.debtor.name}<br><span id="debtor-document">${document}</span></dd>
<dt>${t.dueDate}</dt><dd id="due-date">${formatDay(charge.due_date, locale)}</dd>
<dt>${t.lastPayable}</dt><dd id="last-payable-date">${formatDay(charge.last_payable_date, locale)}</dd>
${extra}
</dl>`;
}

/** A charge that can be paid today: the amount due, its parts, and the BR Code with its QR. */
function openBody(found: DueChargeForPage, t: Messages, locale: Locale): SafeHtml {
  const { charge } = found;
  const code = charge.pix_qr_code;
  return html`<p class="amount-label">${t.dueToday} (<span id="today">${formatDay(charge.today, locale)}</span>)</p>
<p class="amount" id="amount-due">${brl(charge.amount_due_today_minor, locale)}</p>
${breakdown(charge, t, locale)}
${details(found, t, locale)}
<p class="muted" id="amount-note">${t.amountNote}</p>
<section id="pay" aria-labelledby="pay-title">
<h2 id="pay-title">${t.scan}</h2>
${code ? brCodeBlock(t, { brCode: code, qrPngDataUrl: qrPngDataUrl(code) }) : html`<p class="status" id="status" data-state="waiting">${t.noCodeYet}</p>`}
</section>`;
}

/** What a charge that ended shows of its amount: what was paid and when, or the original it asked. */
function endedAmounts(found: DueChargeForPage, t: Messages, locale: Locale): SafeHtml[] {
  const { charge } = found;
  // Unpaid, amount_minor is still the original; paid, it is what was paid.
  if (found.state !== 'paid')
    return [html`<dt>${t.original}</dt><dd id="original-amount">${brl(charge.amount_minor, locale)}</dd>`];
  const paidOn = charge.completed_at && localDateOf(new Date(charge.completed_at), DEFAULT_TIME_ZONE);
  return [
    html`<dt>${t.amountPaid}</dt><dd id="amount-paid">${brl(charge.amount_minor, locale)}</dd>`,
    paidOn ? html`<dt>${t.paidOn}</dt><dd id="paid-on">${formatDay(paidOn, locale)}</dd>` : html``,
  ];
}

/** A charge that cannot be paid today: what happened to it, and no code. */
function endedBody(found: DueChargeForPage, t: Messages, locale: Locale): SafeHtml {
  const message = {
    paid: t.paid,
    expired: t.expired,
    cancelled: t.cancelled,
    closed: t.closed,
    nothing_due: t.nothingDue,
    open: '',
  }[found.state];
  const dataState = { paid: 'completed', nothing_due: 'waiting' }[found.state as string] ?? 'expired';
  return html`<p class="status" id="status" role="status" data-state="${dataState}">${message}</p>
${details(found, t, locale, endedAmounts(found, t, locale))}`;
}

/**
 * The page of a charge, with whether it runs a script (the copy button, only beside a BR Code): the
 * route's CSP allows scripts only then.
 */
export function renderDueChargePage(
  found: DueChargeForPage,
  locale: Locale,
  nonce: string,
): { page: string; scripts: boolean } {
  const t = messagesFor(locale);
  const open = found.state === 'open';
  const title = found.charge.description ?? t.title;
  const body = html`<header class="brand">
${merchantLine(found.merchantName, t)}
<h1>${title}</h1>
</header>
<div class="panel">
${open ? openBody(found, t, locale) : endedBody(found, t, locale)}
</div>`;
  const scripts = open && found.charge.pix_qr_code !== null ? [COPY_BUTTON_SCRIPT] : [];
  const page = renderPage({ locale, nonce, design: {}, sandbox: found.sandbox, title, body, scripts });
  return { page, scripts: scripts.length > 0 };
}

/** The page for a token that names no charge: no merchant, no data, no script. */
export function renderDueChargeNotFound(locale: Locale, nonce: string): string {
  const t = messagesFor(locale);
  const body = html`<header class="brand">
<p>${t.payWithPix}</p>
<h1>${t.notFoundTitle}</h1>
</header>
<div class="panel"><p id="unavailable-reason">${t.notFound}</p></div>`;
  return renderPage({ locale, nonce, design: {}, sandbox: false, title: t.notFoundTitle, body });
}
