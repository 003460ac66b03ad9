import { useState } from 'react';
import { api } from '../api.ts';
import { Field, FormShell, ListTable, Page, useForm, usePaged, When } from '../components.tsx';
import { t } from '../i18n.ts';
import type { WhitelistEntry } from '../schema.ts';
import { NETWORKS } from './networks.ts';

/** Destinations API keys may send crypto to (spec: "registered in the dashboard"), per network. */
export function Whitelist() {
  const entries = usePaged<WhitelistEntry>('/whitelist');
  const form = useForm({ network: 'polygon', address: '', label: '' });
  const [error, setError] = useState<string | null>(null);
  return (
    <Page
      title={t('Crypto whitelist')}
      intro={t('Crypto sends made with an API key may only go to these addresses.')}
    >
      <FormShell
        form={form}
        title={t('Add an address')}
        submitLabel={t('Add address')}
        onSubmit={() =>
          form.submit(async (values) => {
            await api('POST', '/whitelist', {
              network: values.network,
              address: values.address.trim(),
              ...(values.label ? { label: values.label } : {}),
            });
            form.reset();
            entries.reload();
            return t('Address added.');
          })
        }
      >
        <Field form={form} name="network" label={t('Network')} options={[...NETWORKS]} />
        <Field form={form} name="address" label={t('Address')} required />
        <Field form={form} name="label" label={t('Label')} />
      </FormShell>
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      <ListTable
        paged={entries}
        empty={t('No addresses yet: API keys cannot send crypto until you add one.')}
        columns={[
          { label: t('Network'), cell: (entry) => entry.network },
          { label: t('Address'), cell: (entry) => <code>{entry.address}</code> },
          { label: t('Label'), cell: (entry) => entry.label ?? '' },
          { label: t('Created'), cell: (entry) => <When at={entry.created_at} /> },
          {
            label: '',
            cell: (entry) => (
              <button
                type="button"
                className="danger"
                onClick={async () => {
                  setError(null);
                  await api('DELETE', `/whitelist/${entry.id}`).catch((caught: Error) =>
                    setError(caught.message),
                  );
                  entries.reload();
                }}
              >
                {t('Remove')}
              </button>
            ),
          },
        ]}
      />
    </Page>
  );
}
