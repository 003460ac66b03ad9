import { api, query } from '../api.ts';
import { Field, FormShell, ListRows, Money, Page, Status, useForm, usePaged, When } from '../components.tsx';
import { t } from '../i18n.ts';
import { describePayment } from '../labels.ts';
import { href, onLinkClick } from '../router.ts';
import type { CashInResult, KycCase, Payment } from '../schema.ts';
import { minorOf } from './amount.ts';
import { KycDecision } from './kyc-decision.tsx';
import { usePartyOptions } from './parties.ts';

/** Sandbox helpers: money arrives, a buyer pays a charge, compliance approves a KYC case. */
export function Sandbox() {
  const parties = usePartyOptions();
  const cashIn = useForm({ amount_minor: '', party_id: '' });
  const charge = useForm({ amount_minor: '', description: '' });
  const charges = usePaged<Payment>(`/payments${query({ kind: 'pix_cash_in', status: 'created' })}`, 10);
  const cases = usePaged<KycCase>('/kyc', 10);
  const decide = useForm({});
  return (
    <Page title={t('Sandbox tools')} intro={t('Try the flows with test money. None of this exists in live.')}>
      <div className="grid">
        <FormShell
          form={cashIn}
          title={t('Simulate a PIX cash-in')}
          submitLabel={t('Receive money')}
          onSubmit={() =>
            cashIn.submit(async (values) => {
              const payment = await api<CashInResult>(
                'POST',
                '/simulate/pix/cash-in',
                {
                  amount_minor: minorOf(values.amount_minor, 'BRL'),
                  ...(values.party_id ? { party_id: values.party_id } : {}),
                },
                { idempotent: true },
              );
              cashIn.reset();
              return t('Received {amount} ({status}).', {
                amount: `R$ ${values.amount_minor}`,
                status: t(payment.status),
              });
            })
          }
        >
          <Field form={cashIn} name="amount_minor" label={t('Amount (R$)')} inputMode="decimal" required />
          <Field form={cashIn} name="party_id" label={t('Credited to')} options={parties} />
        </FormShell>
        <FormShell
          form={charge}
          title={t('Create a PIX charge')}
          submitLabel={t('Create charge')}
          onSubmit={() =>
            charge.submit(async (values) => {
              await api(
                'POST',
                '/pix/charges',
                {
                  amount_minor: minorOf(values.amount_minor, 'BRL'),
                  currency: 'BRL',
                  ...(values.description ? { description: values.description } : {}),
                },
                { idempotent: true },
              );
              charge.reset();
              charges.reload();
              return t('Charge created: pay it below as a buyer would.');
            })
          }
        >
          <Field form={charge} name="amount_minor" label={t('Amount (R$)')} inputMode="decimal" required />
          <Field form={charge} name="description" label={t('Description')} />
        </FormShell>
      </div>
      <h2>{t('Charges waiting for payment')}</h2>
      <ListRows
        paged={charges}
        empty={t('No open charges. Create one above or through a payment link.')}
        row={(payment) => (
          <>
            <Money minor={payment.amount_minor} currency={payment.currency} /> ·{' '}
            {describePayment(payment.description)} · <When at={payment.created_at} />{' '}
            <button
              type="button"
              onClick={async () => {
                await api('POST', `/simulate/payments/${payment.id}/pay`, {});
                charges.reload();
              }}
            >
              {t('Pay as the buyer')}
            </button>
          </>
        )}
      />
      <h2>{t('KYC cases')}</h2>
      {decide.general && (
        <p className="error" role="alert">
          {decide.general}
        </p>
      )}
      <ListRows
        paged={cases}
        empty={
          <>
            {t('No KYC cases.')}{' '}
            <a href={href('customers')} onClick={(event) => onLinkClick(event, 'customers')}>
              {t('Start one from a customer.')}
            </a>
          </>
        }
        row={(kyc) => (
          <>
            {parties.find(([id]) => id === kyc.party_id)?.[1] ?? kyc.party_id.slice(0, 8)} ·{' '}
            <Status value={kyc.status} /> · <When at={kyc.created_at} />{' '}
            {!['approved', 'rejected'].includes(kyc.status) && (
              <KycDecision kycId={kyc.id} form={decide} onDone={cases.reload} />
            )}
          </>
        )}
      />
    </Page>
  );
}
