/**
 * What a PIX cash-in's page adds: the payer (name, document masked by the API), the end-to-end id,
 * for a checkout payment its link and how its net was split, and a refund.
 */
import { useEffect, useState } from 'react';
import { api, query } from '../api.ts';
import { Field, FormShell, Money, TableScroll, useForm, useLoad } from '../components.tsx';
import { t } from '../i18n.ts';
import { href, navigate, onLinkClick } from '../router.ts';
import type { ApiEvent, Customers, Payment, PaymentLink, Workspace } from '../schema.ts';
import { minorOf } from './amount.ts';

interface SplitPart {
  party_id: string;
  amount_minor: string;
}
type CheckoutItem = { id: string; payment_link_id: string };

/** The split frozen at payment, as the payment_link.payment.completed event announced it. */
function paidCheckout(timeline: ApiEvent[] | null) {
  const event = timeline?.find((e) => e.type === 'payment_link.payment.completed');
  const object = event?.data.object as { payment_link_id?: string; splits?: SplitPart[] } | undefined;
  return object?.payment_link_id ? { linkId: object.payment_link_id, splits: object.splits ?? [] } : null;
}

/** The link a checkout payment not yet paid came through: its row of the checkout list. */
function useCheckoutLink(payment: Payment, paidLinkId: string | undefined): string | null {
  const [linkId, setLinkId] = useState<string | null>(null);
  const payer = (payment.counterparty as { name?: string } | null)?.name;
  useEffect(() => {
    if (paidLinkId || !payer || payment.kind !== 'pix_cash_in') return;
    let live = true;
    api<{ items: CheckoutItem[] }>('GET', `/payment-links/payments${query({ search: payer, limit: 100 })}`)
      .then(
        (page) =>
          live && setLinkId(page.items.find((item) => item.id === payment.id)?.payment_link_id ?? null),
      )
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [payment.id, payment.kind, payer, paidLinkId]);
  return paidLinkId ?? linkId;
}

export function CheckoutFacts({ payment, timeline }: { payment: Payment; timeline: ApiEvent[] | null }) {
  const paid = paidCheckout(timeline);
  const linkId = useCheckoutLink(payment, paid?.linkId);
  const link = useLoad<PaymentLink>(linkId ? `/payment-links/${linkId}` : null);
  const payer = (payment.counterparty ?? {}) as { name?: string; document?: string };
  return (
    <>
      <h2>{t('Payer')}</h2>
      <dl className="facts" data-testid="payer">
        <dt>{t('Name')}</dt>
        <dd>{payer.name ?? '—'}</dd>
        <dt>{t('CPF/CNPJ')}</dt>
        <dd>{payer.document ?? '—'}</dd>
        <dt>{t('End-to-end ID')}</dt>
        <dd>
          <code data-testid="end-to-end-id">{payment.pix_tx_id ?? t('Not settled yet')}</code>
        </dd>
        {linkId && (
          <>
            <dt>{t('Payment link')}</dt>
            <dd data-testid="payment-link">
              <a href={href('links')} onClick={(event) => onLinkClick(event, 'links')}>
                {link.data?.title ?? link.data?.slug ?? t('Payment link')}
              </a>
              {link.data && (
                <>
                  {' '}
                  · <code>{link.data.url}</code>
                </>
              )}
            </dd>
          </>
        )}
      </dl>
      {paid && <SplitBreakdown parts={paid.splits} currency={payment.currency} />}
      {payment.kind === 'pix_cash_in' && payment.status === 'completed' && <Refund payment={payment} />}
    </>
  );
}

function SplitBreakdown({ parts, currency }: { parts: SplitPart[]; currency: string }) {
  const customers = useLoad<Customers>('/customers?limit=100');
  const workspace = useLoad<Workspace>('/workspace');
  const name = (id: string) =>
    id === workspace.data?.default_party_id
      ? `${workspace.data.display_name} (${t('main account')})`
      : (customers.data?.find((party) => party.id === id)?.display_name ?? t('Customer'));
  return (
    <>
      <h2>{t('Split of the net amount')}</h2>
      <TableScroll label={t('Split of the net amount')}>
        <table data-testid="split-breakdown">
          <thead>
            <tr>
              <th scope="col">{t('Recipient')}</th>
              <th scope="col" className="num">
                {t('Amount')}
              </th>
            </tr>
          </thead>
          <tbody>
            {parts.map((part) => (
              <tr key={part.party_id}>
                <td>{name(part.party_id)}</td>
                <td className="num">
                  <Money minor={part.amount_minor} currency={currency} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </>
  );
}

/** A refund of all (amount left empty) or part of the cash-in; its payment's page opens after. */
function Refund({ payment }: { payment: Payment }) {
  const form = useForm({ amount_minor: '', description: '' });
  return (
    <FormShell
      form={form}
      title={t('Refund')}
      submitLabel={t('Refund payment')}
      onSubmit={() =>
        form.submit(async (values) => {
          if (!confirm(t('Return this money to the payer? This cannot be undone.'))) return;
          const refund = await api<Payment>(
            'POST',
            `/payments/${payment.id}/refund`,
            {
              ...(values.amount_minor
                ? { amount_minor: minorOf(values.amount_minor, payment.currency) }
                : {}),
              ...(values.description ? { description: values.description } : {}),
            },
            { idempotent: true },
          );
          navigate(`payments/${refund.id}`);
        })
      }
    >
      <Field
        form={form}
        name="amount_minor"
        label={t('Amount (R$)')}
        inputMode="decimal"
        hint={t('Leave empty to refund everything not refunded yet.')}
      />
      <Field form={form} name="description" label={t('Description')} />
    </FormShell>
  );
}
