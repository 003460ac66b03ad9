import { useEffect } from 'react';
import { api } from '../api.ts';
import { Field, FormShell, Page, useForm, useLoad } from '../components.tsx';
import { t } from '../i18n.ts';
import type { SettlementKey } from '../schema.ts';
import type { PageProps } from './types.ts';

/** The PIX key payouts settle to (spec: "registered in the dashboard"), per environment. */
export function Settlement({ env }: PageProps) {
  const current = useLoad<SettlementKey>('/settlement-key');
  const form = useForm({ pix_key: '', holder_name: '', holder_document: '' });
  const remove = useForm({});
  // biome-ignore lint/correctness/useExhaustiveDependencies: fill the form once the key arrives
  useEffect(() => {
    if (current.data)
      for (const name of ['pix_key', 'holder_name', 'holder_document'] as const)
        form.set(name, current.data[name]);
  }, [current.data]);
  const missing = current.error?.status === 404;
  return (
    <Page
      title={t('Settlement key')}
      intro={t('Payouts of the {env} environment are paid to this PIX key.', { env })}
    >
      {missing && (
        <p className="empty">{t('No settlement key yet: payouts are refused until you register one.')}</p>
      )}
      <FormShell
        form={form}
        submitLabel={t('Save settlement key')}
        onSubmit={() =>
          form.submit(async (values) => {
            await api('PUT', '/settlement-key', values);
            current.reload();
            return t('Settlement key saved.');
          })
        }
      >
        <Field
          form={form}
          name="pix_key"
          label={t('PIX key')}
          hint={t('CPF, CNPJ, e-mail, +55 phone or random key.')}
          required
        />
        <Field form={form} name="holder_name" label={t('Holder name')} required />
        <Field
          form={form}
          name="holder_document"
          label={t('Holder CPF or CNPJ')}
          inputMode="numeric"
          required
        />
      </FormShell>
      {current.data && (
        <FormShell
          form={remove}
          submitLabel={t('Remove settlement key')}
          onSubmit={() =>
            remove.submit(async () => {
              await api('DELETE', '/settlement-key');
              form.reset();
              current.reload();
              return t('Settlement key removed.');
            })
          }
        >
          {null}
        </FormShell>
      )}
    </Page>
  );
}
