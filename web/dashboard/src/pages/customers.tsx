import { useState } from 'react';
import { api, query } from '../api.ts';
import {
  Empty,
  Field,
  FormShell,
  ListRows,
  ListTable,
  Page,
  Status,
  useForm,
  useLoad,
  usePaged,
  When,
} from '../components.tsx';
import { t } from '../i18n.ts';
import { href, onLinkClick } from '../router.ts';
import type { KycCase, Party, Rfi } from '../schema.ts';
import { KycDecision } from './kyc-decision.tsx';
import type { PageProps } from './types.ts';

/** Customers (parties), their KYC cases and the RFI items compliance asks. */
export function Customers({ route, env }: PageProps) {
  const id = route.split('/')[1];
  if (id) return <CustomerDetail id={id} sandbox={env === 'sandbox'} />;
  return <CustomerList />;
}

function CustomerList() {
  const filters = useForm({ search: '', status: '' });
  const customers = usePaged<Party>(`/customers${query(filters.values)}`);
  const form = useForm({
    display_name: '',
    kind: 'person',
    document_type: 'cpf',
    document_number: '',
    email: '',
  });
  return (
    <Page title={t('Customers')}>
      <FormShell
        form={form}
        title={t('Add a customer')}
        submitLabel={t('Add customer')}
        onSubmit={() =>
          form.submit(async (values) => {
            await api('POST', '/customers', {
              display_name: values.display_name,
              kind: values.kind,
              ...(values.document_number
                ? {
                    document_type: values.document_type,
                    document_number: values.document_number.replace(/\D/g, ''),
                  }
                : {}),
              ...(values.email ? { email: values.email } : {}),
            });
            form.reset();
            customers.reload();
            return t('Customer added.');
          })
        }
      >
        <Field form={form} name="display_name" label={t('Name')} required />
        <Field
          form={form}
          name="kind"
          label={t('Kind')}
          options={[
            ['person', t('person')],
            ['business', t('business')],
          ]}
        />
        <Field
          form={form}
          name="document_type"
          label={t('Document type')}
          options={[
            ['cpf', 'CPF'],
            ['cnpj', 'CNPJ'],
          ]}
        />
        <Field form={form} name="document_number" label={t('Document number')} inputMode="numeric" />
        <Field form={form} name="email" label={t('E-mail')} type="email" />
      </FormShell>
      <form className="filters" aria-label={t('Filters')} onSubmit={(event) => event.preventDefault()}>
        <Field form={filters} name="search" label={t('Search')} />
        <Field
          form={filters}
          name="status"
          label={t('Status')}
          options={[
            ['', t('All')],
            ['active', t('active')],
            ['blocked', t('blocked')],
          ]}
        />
      </form>
      <ListTable
        paged={customers}
        empty={t('No customers yet. Add one above; customers can receive splits and hold balances.')}
        columns={[
          {
            label: t('Name'),
            cell: (customer) => (
              <a
                href={href(`customers/${customer.id}`)}
                onClick={(event) => onLinkClick(event, `customers/${customer.id}`)}
              >
                {customer.display_name}
              </a>
            ),
          },
          { label: t('Kind'), cell: (customer) => t(customer.kind) },
          { label: t('Status'), cell: (customer) => <Status value={customer.status} /> },
          { label: 'KYC', cell: (customer) => <Status value={customer.kyc_status} /> },
        ]}
      />
    </Page>
  );
}

function CustomerDetail({ id, sandbox }: { id: string; sandbox: boolean }) {
  const customer = useLoad<Party>(`/customers/${id}`);
  const cases = usePaged<KycCase>(`/kyc${query({ party_id: id })}`);
  const start = useForm({});
  return (
    <Page title={customer.data?.display_name ?? t('Customer')}>
      <p>
        <a href={href('customers')} onClick={(event) => onLinkClick(event, 'customers')}>
          ← {t('All customers')}
        </a>
      </p>
      {customer.data && (
        <dl className="facts">
          <dt>{t('Kind')}</dt>
          <dd>{t(customer.data.kind)}</dd>
          <dt>{t('Document number')}</dt>
          <dd>{customer.data.document_number ?? '—'}</dd>
          <dt>{t('E-mail')}</dt>
          <dd>{customer.data.email ?? '—'}</dd>
          <dt>KYC</dt>
          <dd>
            <Status value={customer.data.kyc_status} />
          </dd>
        </dl>
      )}
      <h2>{t('KYC cases')}</h2>
      <FormShell
        form={start}
        submitLabel={t('Start a KYC case')}
        onSubmit={() =>
          start.submit(async () => {
            await api('POST', '/kyc', { party_id: id });
            cases.reload();
          })
        }
      >
        {null}
      </FormShell>
      {cases.items.length === 0 && !cases.loading && (
        <Empty>{t('No KYC case yet. Start one to verify this customer.')}</Empty>
      )}
      {cases.items.map((kyc) => (
        <KycCaseView
          key={kyc.id}
          kyc={kyc}
          sandbox={sandbox}
          onChange={() => {
            cases.reload();
            customer.reload();
          }}
        />
      ))}
    </Page>
  );
}

function KycCaseView({ kyc, sandbox, onChange }: { kyc: KycCase; sandbox: boolean; onChange: () => void }) {
  const rfis = usePaged<Rfi>(`/kyc/${kyc.id}/rfi`);
  const decide = useForm({});
  const [answering, setAnswering] = useState<string | null>(null);
  const answer = useForm({ answer: '' });
  return (
    <div className="form">
      <p>
        <Status value={kyc.status} /> · <When at={kyc.created_at} />{' '}
        {kyc.decision_reason ? `· ${kyc.decision_reason}` : ''}
      </p>
      {decide.general && <p className="error">{decide.general}</p>}
      {sandbox && !['approved', 'rejected'].includes(kyc.status) && (
        <p>
          <KycDecision kycId={kyc.id} form={decide} onDone={onChange} />
        </p>
      )}
      <h3>{t('Requests for information')}</h3>
      <ListRows
        paged={rfis}
        empty={t('Compliance has asked for nothing on this case.')}
        row={(rfi) => (
          <>
            <strong>{rfi.field_name}</strong>: {rfi.description} <Status value={rfi.status} />{' '}
            {rfi.status === 'open' && (
              <button type="button" className="secondary" onClick={() => setAnswering(rfi.id)}>
                {t('Answer')}
              </button>
            )}
            {answering === rfi.id && (
              <FormShell
                form={answer}
                submitLabel={t('Send answer')}
                onSubmit={() =>
                  answer.submit(async (values) => {
                    await api('POST', `/kyc/${kyc.id}/rfi/${rfi.id}/answer`, { answer: values.answer });
                    setAnswering(null);
                    rfis.reload();
                    onChange();
                  })
                }
              >
                <Field form={answer} name="answer" label={t('Answer')} required />
              </FormShell>
            )}
          </>
        )}
      />
    </div>
  );
}
