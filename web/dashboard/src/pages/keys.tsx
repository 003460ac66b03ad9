import { useState } from 'react';
import { api } from '../api.ts';
import {
  Field,
  FormShell,
  ListTable,
  Page,
  SecretOnce,
  Status,
  useForm,
  usePaged,
  When,
} from '../components.tsx';
import { t } from '../i18n.ts';
import type { ApiKey, NewApiKey } from '../schema.ts';
import { CurlExample, WorkspaceId } from '../workspace-id.tsx';
import { usePartyOptions } from './parties.ts';
import type { PageProps } from './types.ts';

/** API keys of this environment: create (the secret shown once), list, revoke. */
export function Keys({ env, session }: PageProps) {
  const keys = usePaged<ApiKey>('/api-keys');
  const [created, setCreated] = useState<NewApiKey | null>(null);
  const form = useForm({ name: '', party_id: '' });
  const parties = usePartyOptions();
  const [revokeError, setRevokeError] = useState<string | null>(null);
  return (
    <Page title={t('API keys')} intro={t('Keys let your systems call the {env} API.', { env: env })}>
      <WorkspaceId id={session.workspaceId} />
      <CurlExample env={env} workspaceId={session.workspaceId} />
      <FormShell
        form={form}
        title={t('Create a key')}
        submitLabel={t('Create key')}
        onSubmit={() =>
          form.submit(async (values) => {
            const key = await api<NewApiKey>('POST', '/api-keys', {
              name: values.name,
              ...(values.party_id ? { party_id: values.party_id } : {}),
            });
            setCreated(key);
            form.reset();
            keys.reload();
          })
        }
      >
        <Field
          form={form}
          name="name"
          label={t('Name')}
          hint={t('Where the key is used, e.g. "checkout server".')}
          required
        />
        <Field
          form={form}
          name="party_id"
          label={t('Scope')}
          options={parties}
          hint={t('A key bound to one party sees and moves only that party’s money.')}
        />
      </FormShell>
      {created?.secret && (
        <SecretOnce
          title={t('Copy this key now: it is shown only once.')}
          secret={created.secret}
          testId="new-key-secret"
        >
          <button type="button" className="link" onClick={() => setCreated(null)}>
            {t('I saved it')}
          </button>
        </SecretOnce>
      )}
      <h2>{t('Keys')}</h2>
      {revokeError && (
        <p className="error" role="alert">
          {revokeError}
        </p>
      )}
      <ListTable
        paged={keys}
        empty={t('No keys yet. Create one above to call the API from your servers.')}
        columns={[
          { label: t('Name'), cell: (key) => key.name },
          { label: t('Ends in'), cell: (key) => <code>…{key.last4}</code> },
          {
            label: t('Scope'),
            cell: (key) =>
              key.party_id
                ? (parties.find(([id]) => id === key.party_id)?.[1] ?? key.party_id.slice(0, 8))
                : t('Whole workspace'),
          },
          { label: t('Created'), cell: (key) => <When at={key.created_at} /> },
          { label: t('Last used'), cell: (key) => <When at={key.last_used_at} /> },
          { label: t('Status'), cell: (key) => <Status value={key.revoked_at ? 'revoked' : 'active'} /> },
          {
            label: '',
            cell: (key) =>
              !key.revoked_at && (
                <button
                  type="button"
                  className="danger"
                  aria-label={t('Revoke key {name}', { name: key.name })}
                  onClick={async () => {
                    if (
                      !confirm(
                        t('Revoke key {name}? Calls with it stop working at once.', { name: key.name }),
                      )
                    )
                      return;
                    setRevokeError(null);
                    await api('DELETE', `/api-keys/${key.id}`).catch((error: Error) =>
                      setRevokeError(error.message),
                    );
                    keys.reload();
                  }}
                >
                  {t('Revoke')}
                </button>
              ),
          },
        ]}
      />
    </Page>
  );
}
