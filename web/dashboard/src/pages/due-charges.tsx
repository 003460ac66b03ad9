import type { ReactNode } from 'react';
import { api, query } from '../api.ts';
import {
  AppLink,
  CopyButton,
  Day,
  Field,
  FormShell,
  ListTable,
  LocalError,
  Money,
  Page,
  Status,
  useForm,
  useLoad,
  usePaged,
  When,
} from '../components.tsx';
import { getLocale, t } from '../i18n.ts';
import type { DueCharge } from '../schema.ts';
import { minorOf, percentOf } from './amount.ts';
import { usePartyOptions } from './parties.ts';
import { Timeline, useTimeline } from './payments.tsx';
import { ConfirmAction, StatusFilter, wordsOf } from './status-actions.tsx';
import type { PageProps } from './types.ts';

/** A charge's status in words: "created" is a charge waiting for its payer. */
const STATUS_WORDS: Record<string, string> = {
  created: 'Waiting',
  completed: 'Paid',
  expired: 'Expired',
  refunded: 'Refunded',
  cancelled: 'Cancelled',
};
const statusOf = (charge: DueCharge) => (charge.cancelled_at ? 'cancelled' : charge.status);
const ChargeStatus = ({ charge }: { charge: DueCharge }) => (
  <Status value={statusOf(charge)} label={wordsOf(STATUS_WORDS, statusOf(charge))} />
);

/** PIX charges with a due date (CobV): the list, one charge's terms and BR Code, and the create form. */
export function DueCharges({ route }: PageProps) {
  const id = route.split('/')[1];
  if (id) return <DueChargeDetail id={id} />;
  return <DueChargeList />;
}

function DueChargeList() {
  const filters = useForm({ status: '' });
  const charges = usePaged<DueCharge>(`/pix/due-charges${query(filters.values)}`);
  return (
    <Page
      title={t('Due-date charges')}
      intro={t(
        'PIX charges with a due date: a fine and interest when paid late, a discount when paid early. The amount due changes each day.',
      )}
    >
      <StatusFilter form={filters} table={STATUS_WORDS} />
      <ListTable
        paged={charges}
        empty={t('No due-date charges yet. Create one below.')}
        rowData={(charge) => ({ 'data-charge-id': charge.id })}
        columns={[
          {
            label: t('Due date'),
            cell: (charge) => (
              <AppLink to={`due-charges/${charge.id}`}>
                <Day day={charge.due_date} />
              </AppLink>
            ),
          },
          { label: t('Status'), cell: (charge) => <ChargeStatus charge={charge} /> },
          { label: t('Debtor'), cell: (charge) => charge.debtor.name },
          {
            label: t('Amount'),
            num: true,
            cell: (charge) => <Money minor={charge.amount_minor} currency="BRL" />,
          },
          {
            label: t('Due today'),
            num: true,
            cell: (charge) => <Money minor={charge.amount_due_today_minor} currency="BRL" />,
          },
        ]}
      />
      <CreateDueCharge onCreated={charges.reload} />
    </Page>
  );
}

/** The body of a new charge from the form: the basics of each term (a percentage fine, monthly interest, a discount until the due date). */
function dueChargeBody(values: Record<string, string>) {
  if (!values.due_date) throw new LocalError('due_date', t('Choose the due date.'));
  const amount = minorOf(values.amount_minor ?? '', 'BRL');
  const fine = percentOf(values.fine ?? '', 'fine');
  const interest = percentOf(values.interest ?? '', 'interest');
  const discount = values.discount?.trim() ? minorOf(values.discount, 'BRL', 'discount') : undefined;
  return {
    amount_minor: amount,
    due_date: values.due_date,
    debtor: { name: values.debtor_name, document: values.debtor_document },
    ...(fine ? { fine: { modality: 2, percent: fine } } : {}),
    ...(interest ? { interest: { modality: 3, percent: interest } } : {}),
    ...(discount
      ? { discount: { modality: 1, dates: [{ date: values.due_date, value_minor: discount }] } }
      : {}),
    ...(values.party_id ? { party_id: values.party_id } : {}),
    ...(values.description ? { description: values.description } : {}),
  };
}

function CreateDueCharge({ onCreated }: { onCreated: () => void }) {
  const parties = usePartyOptions();
  const form = useForm({
    debtor_name: '',
    debtor_document: '',
    amount_minor: '',
    due_date: '',
    fine: '',
    interest: '',
    discount: '',
    party_id: '',
    description: '',
  });
  return (
    <FormShell
      form={form}
      title={t('Create a due-date charge')}
      submitLabel={t('Create charge')}
      onSubmit={() =>
        form.submit(async (values) => {
          await api('POST', '/pix/due-charges', dueChargeBody(values), { idempotent: true });
          form.reset();
          onCreated();
          return t('Charge created.');
        })
      }
    >
      <Field form={form} name="debtor_name" label={t('Debtor name')} required autoComplete="off" />
      <Field
        form={form}
        name="debtor_document"
        label={t('Debtor CPF or CNPJ')}
        required
        inputMode="numeric"
      />
      <Field form={form} name="amount_minor" label={t('Amount (R$)')} required inputMode="decimal" />
      <Field form={form} name="due_date" label={t('Due date')} type="date" required />
      <Field
        form={form}
        name="fine"
        label={t('Fine (%)')}
        hint={t('Charged once when paid late.')}
        inputMode="decimal"
      />
      <Field
        form={form}
        name="interest"
        label={t('Interest (% a month)')}
        hint={t('For each day late.')}
        inputMode="decimal"
      />
      <Field
        form={form}
        name="discount"
        label={t('Discount (R$)')}
        hint={t('When paid by the due date.')}
        inputMode="decimal"
      />
      <Field form={form} name="party_id" label={t('Credited to')} options={parties} />
      <Field form={form} name="description" label={t('Description')} hint={t('Shown to the payer.')} />
    </FormShell>
  );
}

type Term = NonNullable<DueCharge['fine']>;
type Discount = NonNullable<DueCharge['discount']>;

/** "2,00 %" in Portuguese, "2.00%" in English. */
const percentText = (percent: string | undefined) =>
  getLocale() === 'en' ? `${percent}%` : `${(percent ?? '').replace('.', ',')} %`;

/** A value or a percentage, whichever the term's modality takes. */
const termAmount = (term: { value_minor?: string; percent?: string }): ReactNode =>
  term.value_minor !== undefined ? (
    <Money minor={term.value_minor} currency="BRL" />
  ) : (
    percentText(term.percent)
  );

const INTEREST_PERIODS: Record<number, string> = {
  1: 'per day late',
  2: 'per day late',
  3: 'a month, by the day late',
  4: 'a year, by the day late',
};

function DiscountTerms({ discount }: { discount: Discount }) {
  if (discount.dates)
    return (
      <>
        {discount.dates.map((entry) => (
          <span key={entry.date}>
            {termAmount(entry)} {t('off until')} <Day day={entry.date} />{' '}
          </span>
        ))}
      </>
    );
  return (
    <>
      {termAmount(discount)} {t('per day paid early')}
    </>
  );
}

function Terms({ charge }: { charge: DueCharge }) {
  const line = (label: string, term: Term | null, words: string) =>
    term && (
      <>
        <dt>{label}</dt>
        <dd>
          {termAmount(term)} {t(words)}
        </dd>
      </>
    );
  return (
    <dl className="facts">
      {line(t('Fine'), charge.fine, 'once, when late')}
      {line(t('Interest'), charge.interest, INTEREST_PERIODS[charge.interest?.modality ?? 0] ?? '')}
      {line(t('Rebate'), charge.rebate, 'whenever paid')}
      {charge.discount && (
        <>
          <dt>{t('Discount')}</dt>
          <dd>
            <DiscountTerms discount={charge.discount} />
          </dd>
        </>
      )}
      {!charge.fine && !charge.interest && !charge.rebate && !charge.discount && (
        <dd>{t('No fine, interest, rebate or discount: the amount is the same every day.')}</dd>
      )}
    </dl>
  );
}

function AmountDueToday({ charge }: { charge: DueCharge }) {
  const parts = charge.amount_due_today;
  const row = (label: string, minor: string, sign = '') =>
    minor !== '0' && (
      <>
        <dt>{label}</dt>
        <dd>
          {sign}
          <Money minor={minor} currency="BRL" />
        </dd>
      </>
    );
  return (
    <>
      <h2>
        {t('Due today')} (<Day day={charge.today} />)
      </h2>
      <dl className="facts" data-testid="amount-due-today">
        {row(t('Original amount'), parts.original_minor)}
        {row(t('Fine'), parts.fine_minor, '+ ')}
        {row(t('Interest'), parts.interest_minor, '+ ')}
        {row(t('Rebate'), parts.rebate_minor, '− ')}
        {row(t('Discount'), parts.discount_minor, '− ')}
        <dt>{t('Total')}</dt>
        <dd>
          <strong>
            <Money minor={charge.amount_due_today_minor} currency="BRL" />
          </strong>
        </dd>
      </dl>
    </>
  );
}

function CancelDueCharge({ charge, onDone }: { charge: DueCharge; onDone: () => void }) {
  if (statusOf(charge) !== 'created') return null;
  return (
    <ConfirmAction
      title={t('Cancel this charge')}
      hint={t('Cancel it while it waits: its BR Code stops working.')}
      submitLabel={t('Cancel charge')}
      question={t('Cancel this charge? The payer can no longer pay it.')}
      run={async () => {
        await api('PATCH', `/pix/due-charges/${charge.id}`, { status: 'cancelled' });
        onDone();
        return t('Charge cancelled.');
      }}
    />
  );
}

function DueChargeFacts({ charge }: { charge: DueCharge }) {
  return (
    <dl className="facts">
      <dt>{t('Status')}</dt>
      <dd data-testid="due-charge-status">
        <ChargeStatus charge={charge} />
      </dd>
      <dt>{t('Debtor')}</dt>
      <dd>
        {charge.debtor.name} · {charge.debtor.document_type.toUpperCase()}{' '}
        <code>{charge.debtor.document}</code>
      </dd>
      <dt>{t('Amount')}</dt>
      <dd>
        <Money minor={charge.amount_minor} currency="BRL" />
      </dd>
      <dt>{t('Due date')}</dt>
      <dd>
        <Day day={charge.due_date} />
      </dd>
      <dt>{t('Last day to pay')}</dt>
      <dd>
        <Day day={charge.last_payable_date} />
      </dd>
      {charge.description && (
        <>
          <dt>{t('Description')}</dt>
          <dd>{charge.description}</dd>
        </>
      )}
      {charge.completed_at && (
        <>
          <dt>{t('Paid')}</dt>
          <dd>
            <When at={charge.completed_at} />
          </dd>
        </>
      )}
      <dt>{t('Created')}</dt>
      <dd>
        <When at={charge.created_at} />
      </dd>
    </dl>
  );
}

function DueChargeDetail({ id }: { id: string }) {
  const loaded = useLoad<DueCharge>(`/pix/due-charges/${id}`);
  const charge = loaded.data;
  const timeline = useTimeline(id, charge ? `${statusOf(charge)}-${charge.revision}` : undefined);
  return (
    <Page title={t('Due-date charge')}>
      <p>
        <AppLink to={'due-charges'}>← {t('All due-date charges')}</AppLink>
      </p>
      {loaded.error && <p className="error">{loaded.error.message}</p>}
      {charge && (
        <>
          <DueChargeFacts charge={charge} />
          <AmountDueToday charge={charge} />
          <h2>{t('Terms')}</h2>
          <Terms charge={charge} />
          {charge.pix_qr_code && statusOf(charge) === 'created' && (
            <>
              <h2>{t('BR Code (copy and paste)')}</h2>
              <p>
                <code data-testid="due-charge-brcode">{charge.pix_qr_code}</code>
              </p>
              <CopyButton text={charge.pix_qr_code} label={t('Copy BR Code')} />
            </>
          )}
          <CancelDueCharge charge={charge} onDone={loaded.reload} />
          <Timeline events={timeline} />
        </>
      )}
    </Page>
  );
}
