import { api } from '../api.ts';
import { Field, FormShell, ListTable, Page, Status, useForm, usePaged, When } from '../components.tsx';
import { t } from '../i18n.ts';
import type { Subaccount } from '../schema.ts';
import type { PageProps } from './types.ts';

/** Child workspaces; acting on one makes balances, payments, wallets, PIX, links and RFQ pages its own. */
export function Subaccounts({ acting, actOn }: PageProps) {
  const list = usePaged<Subaccount>('/subaccounts');
  const form = useForm({ display_name: '', legal_name: '' });
  return (
    <Page title={t('Sub-accounts')}>
      <FormShell
        form={form}
        title={t('Create a sub-account')}
        submitLabel={t('Create sub-account')}
        onSubmit={() =>
          form.submit(async (values) => {
            await api('POST', '/subaccounts', {
              display_name: values.display_name,
              ...(values.legal_name ? { legal_name: values.legal_name } : {}),
            });
            form.reset();
            list.reload();
            return t('Sub-account created.');
          })
        }
      >
        <Field form={form} name="display_name" label={t('Name')} required />
        <Field form={form} name="legal_name" label={t('Legal name')} />
      </FormShell>
      <ListTable
        paged={list}
        empty={t('No sub-accounts. Create one to keep a branch’s or a client’s money apart.')}
        columns={[
          { label: t('Name'), cell: (sub) => sub.display_name },
          { label: t('Status'), cell: (sub) => <Status value={sub.status} /> },
          { label: t('Created'), cell: (sub) => <When at={sub.created_at} /> },
          {
            label: '',
            cell: (sub) =>
              acting?.id === sub.id ? (
                <button type="button" className="secondary" onClick={() => actOn(null)}>
                  {t('Stop acting')}
                </button>
              ) : (
                <button
                  type="button"
                  className="secondary"
                  onClick={() => actOn({ id: sub.id, name: sub.display_name })}
                >
                  {t('Act on it')}
                </button>
              ),
          },
        ]}
      />
    </Page>
  );
}
