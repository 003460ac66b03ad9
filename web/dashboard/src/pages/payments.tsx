import { PAYMENT_KINDS } from '@lastro/sdk/generated';
import { useEffect, useState } from 'react';
import { api, query } from '../api.ts';
import {
  Empty,
  Field,
  ListTable,
  Money,
  Page,
  Status,
  useForm,
  useLoad,
  usePaged,
  When,
} from '../components.tsx';
import { t } from '../i18n.ts';
import { describePayment, eventName } from '../labels.ts';
import { href, onLinkClick } from '../router.ts';
import type { ApiEvent, Payment } from '../schema.ts';
import { CheckoutFacts } from './checkout-detail.tsx';
import { usePartyOptions } from './parties.ts';
import type { PageProps } from './types.ts';

const STATUSES = ['', 'created', 'processing', 'completed', 'failed', 'expired', 'refunded'];
const KINDS = ['', ...PAYMENT_KINDS];
const label = (value: string) => (value ? t(value) : t('All'));

/** Payments with filters (status, kind, party); a row opens its detail. */
export function Payments({ route }: PageProps) {
  const id = route.split('/')[1];
  if (id) return <PaymentDetail id={id} />;
  return <PaymentList />;
}

function PaymentList() {
  const filters = useForm({ status: '', kind: '', party_id: '' });
  const parties = usePartyOptions();
  const payments = usePaged<Payment>(`/payments${query(filters.values)}`);
  return (
    <Page title={t('Payments')}>
      <form className="filters" aria-label={t('Filters')} onSubmit={(event) => event.preventDefault()}>
        <Field
          form={filters}
          name="status"
          label={t('Status')}
          options={STATUSES.map((s) => [s, label(s)])}
        />
        <Field form={filters} name="kind" label={t('Kind')} options={KINDS.map((k) => [k, label(k)])} />
        <Field
          form={filters}
          name="party_id"
          label={t('Party')}
          options={[['', t('All')], ...parties.slice(1)]}
        />
      </form>
      <ListTable
        paged={payments}
        empty={t(
          'No payments match. Create a PIX charge, a payment link or, in the sandbox, simulate a cash-in.',
        )}
        rowData={(payment) => ({ 'data-payment-id': payment.id })}
        columns={[
          {
            label: t('Created'),
            cell: (payment) => (
              <a
                href={href(`payments/${payment.id}`)}
                onClick={(event) => onLinkClick(event, `payments/${payment.id}`)}
              >
                <When at={payment.created_at} />
              </a>
            ),
          },
          { label: t('Kind'), cell: (payment) => t(payment.kind) },
          { label: t('Status'), cell: (payment) => <Status value={payment.status} /> },
          {
            label: t('Amount'),
            num: true,
            cell: (payment) => <Money minor={payment.amount_minor} currency={payment.currency} />,
          },
          { label: t('Description'), cell: (payment) => describePayment(payment.description) },
        ]}
      />
    </Page>
  );
}

/** The id of the resource an event carries: any resource, so the schema leaves its shape open. */
const objectId = (event: ApiEvent) => (event.data.object as { id?: string }).id;

/** The events that announced this payment (the API has no filter by object, so recent pages are scanned). */
export function useTimeline(paymentId: string, status: string | undefined) {
  const [events, setEvents] = useState<ApiEvent[] | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new status means new events
  useEffect(() => {
    let live = true;
    (async () => {
      const found: ApiEvent[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < 5; page++) {
        const batch = await api<ApiEvent[]>('GET', `/events${query({ limit: 100, cursor })}`);
        found.push(...batch.filter((event) => objectId(event) === paymentId));
        if (batch.length < 100) break;
        cursor = batch.at(-1)?.id;
      }
      if (live) setEvents(found.reverse());
    })().catch(() => live && setEvents([]));
    return () => {
      live = false;
    };
  }, [paymentId, status]);
  return events;
}

function PaymentDetail({ id }: { id: string }) {
  const payment = useLoad<Payment>(`/payments/${id}`);
  const timeline = useTimeline(id, payment.data?.status);
  const p = payment.data;
  // A payment still moving is asked again until it settles.
  useEffect(() => {
    if (!p || !['created', 'processing'].includes(p.status)) return;
    const timer = setTimeout(payment.reload, 1500);
    return () => clearTimeout(timer);
  }, [p, payment.reload]);
  return (
    <Page title={t('Payment')}>
      <p>
        <a href={href('payments')} onClick={(event) => onLinkClick(event, 'payments')}>
          ← {t('All payments')}
        </a>
      </p>
      {payment.error && <p className="error">{payment.error.message}</p>}
      {p && (
        <>
          <dl className="facts">
            <dt>{t('Status')}</dt>
            <dd data-testid="payment-status">
              <Status value={p.status} />
            </dd>
            <dt>{t('Kind')}</dt>
            <dd>{t(p.kind)}</dd>
            <dt>{t('Amount')}</dt>
            <dd>
              <Money minor={p.amount_minor} currency={p.currency} />
            </dd>
            <dt>{t('Fee')}</dt>
            <dd>
              <Money minor={p.fee_minor} currency={p.currency} />
            </dd>
            {p.pix_key && (
              <>
                <dt>{t('PIX key')}</dt>
                <dd>{p.pix_key}</dd>
              </>
            )}
            {p.to_address && (
              <>
                <dt>{t('Destination')}</dt>
                <dd>
                  <code>{p.to_address}</code> ({p.network})
                </dd>
              </>
            )}
            {p.failure_reason && (
              <>
                <dt>{t('Failure reason')}</dt>
                <dd>{p.failure_reason}</dd>
              </>
            )}
            <dt>{t('Created')}</dt>
            <dd>
              <When at={p.created_at} />
            </dd>
            <dt>ID</dt>
            <dd>
              <code>{p.id}</code>
            </dd>
          </dl>
          {p.kind === 'pix_cash_in' && <CheckoutFacts payment={p} timeline={timeline} />}
          <Timeline events={timeline} />
        </>
      )}
    </Page>
  );
}

/** A payment's events, oldest first, as its history. */
export function Timeline({ events }: { events: ApiEvent[] | null }) {
  return (
    <>
      <h2>{t('Timeline')}</h2>
      {events === null ? (
        <p role="status">{t('Loading…')}</p>
      ) : events.length === 0 ? (
        <Empty>{t('No events yet for this payment.')}</Empty>
      ) : (
        <ol className="timeline">
          {events.map((event) => (
            <li key={event.id}>
              <strong data-event-type={event.type}>{eventName(event.type)}</strong>{' '}
              <When at={event.created_at} />
            </li>
          ))}
        </ol>
      )}
    </>
  );
}
