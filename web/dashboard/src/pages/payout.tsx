import { useEffect } from 'react';
import { api } from '../api.ts';
import { Field, FormShell, Page, useForm, useLoad } from '../components.tsx';
import { t } from '../i18n.ts';
import { navigate } from '../router.ts';
import type { PayoutResult, SettlementKey } from '../schema.ts';
import { minorOf } from './amount.ts';
import { usePartyOptions } from './parties.ts';

/** A PIX payout to the settlement key; the fee is added to the amount and debited with it. */
export function Payout() {
  const settlement = useLoad<SettlementKey>('/settlement-key');
  const parties = usePartyOptions();
  const form = useForm({ amount_minor: '', pix_key: '', description: '', party_id: '' });
  // biome-ignore lint/correctness/useExhaustiveDependencies: prefill once
  useEffect(() => {
    if (settlement.data && !form.values.pix_key) form.set('pix_key', settlement.data.pix_key);
  }, [settlement.data]);
  return (
    <Page title={t('PIX payout')} intro={t('Send money from a balance to the registered settlement key.')}>
      {settlement.error?.status === 404 && (
        <p className="empty">{t('Register a settlement key first: payouts are refused without one.')}</p>
      )}
      <FormShell
        form={form}
        submitLabel={t('Send payout')}
        onSubmit={() =>
          form.submit(async (values) => {
            const payment = await api<PayoutResult>(
              'POST',
              '/pix/payouts',
              {
                amount_minor: minorOf(values.amount_minor, 'BRL'),
                currency: 'BRL',
                pix_key: values.pix_key,
                ...(values.description ? { description: values.description } : {}),
                ...(values.party_id ? { party_id: values.party_id } : {}),
              },
              { idempotent: true },
            );
            navigate(`payments/${payment.id}`);
          })
        }
      >
        <Field form={form} name="amount_minor" label={t('Amount (R$)')} inputMode="decimal" required />
        <Field form={form} name="pix_key" label={t('PIX key')} required />
        <Field form={form} name="party_id" label={t('Paid from')} options={parties} />
        <Field form={form} name="description" label={t('Description')} />
      </FormShell>
    </Page>
  );
}
