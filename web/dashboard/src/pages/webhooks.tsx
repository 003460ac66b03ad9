import { EVENT_TYPES } from '@lastro/sdk/generated';
import { useState } from 'react';
import { api, query } from '../api.ts';
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
import { eventName } from '../labels.ts';
import type {
  NewWebhookEndpoint,
  RotatedWebhookEndpoint,
  WebhookDelivery,
  WebhookEndpoint,
} from '../schema.ts';

/** Webhook endpoints (create, rotate the secret, disable) and the delivery log (filters, retry). */
export function Webhooks() {
  const endpoints = usePaged<WebhookEndpoint>('/webhooks/endpoints');
  const form = useForm({ url: '', description: '' });
  const [secret, setSecret] = useState<{ url: string; secret: string } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const act = async (run: () => Promise<unknown>) => {
    setActionError(null);
    await run().catch((error: Error) => setActionError(error.message));
    endpoints.reload();
  };
  return (
    <Page title={t('Webhooks')} intro={t('Lastro posts signed events (Standard Webhooks) to these URLs.')}>
      <FormShell
        form={form}
        title={t('Add an endpoint')}
        submitLabel={t('Add endpoint')}
        onSubmit={() =>
          form.submit(async (values) => {
            const created = await api<NewWebhookEndpoint>('POST', '/webhooks/endpoints', {
              url: values.url,
              ...(values.description ? { description: values.description } : {}),
            });
            if (created.secret) setSecret({ url: created.url, secret: created.secret });
            form.reset();
            endpoints.reload();
          })
        }
      >
        <Field
          form={form}
          name="url"
          label={t('URL')}
          type="url"
          placeholder="https://example.com/webhooks"
          required
        />
        <Field form={form} name="description" label={t('Description')} />
      </FormShell>
      {secret && (
        <SecretOnce
          title={t('Signing secret for {url}: copy it now, it is shown only once.', { url: secret.url })}
          secret={secret.secret}
          testId="webhook-secret"
        />
      )}
      <h2>{t('Endpoints')}</h2>
      {actionError && (
        <p className="error" role="alert">
          {actionError}
        </p>
      )}
      <ListTable
        paged={endpoints}
        empty={t('No endpoints yet. Add the URL of your server above to receive events.')}
        columns={[
          {
            label: 'URL',
            cell: (endpoint) => (
              <>
                <code>{endpoint.url}</code>
                {endpoint.description && <div className="hint">{endpoint.description}</div>}
              </>
            ),
          },
          {
            label: t('Status'),
            cell: (endpoint) => (
              <>
                <Status value={endpoint.status} />
                {endpoint.disabled_reason && <div className="hint">{endpoint.disabled_reason}</div>}
              </>
            ),
          },
          { label: t('Created'), cell: (endpoint) => <When at={endpoint.created_at} /> },
          {
            label: '',
            cell: (endpoint) => (
              <span className="actions">
                <button
                  type="button"
                  className="secondary"
                  onClick={() =>
                    act(async () => {
                      const rotated = await api<RotatedWebhookEndpoint>(
                        'POST',
                        `/webhooks/endpoints/${endpoint.id}/rotate-secret`,
                      );
                      if (rotated.secret) setSecret({ url: rotated.url, secret: rotated.secret });
                    })
                  }
                >
                  {t('Rotate secret')}
                </button>
                <button
                  type="button"
                  className="secondary"
                  onClick={() =>
                    act(() =>
                      api('PATCH', `/webhooks/endpoints/${endpoint.id}`, {
                        status: endpoint.status === 'enabled' ? 'disabled' : 'enabled',
                      }),
                    )
                  }
                >
                  {endpoint.status === 'enabled' ? t('Disable') : t('Enable')}
                </button>
              </span>
            ),
          },
        ]}
      />
      <Deliveries endpoints={endpoints.items} />
    </Page>
  );
}

function Deliveries({ endpoints }: { endpoints: WebhookEndpoint[] }) {
  const filters = useForm({ status: '', event_type: '', endpoint_id: '' });
  const deliveries = usePaged<WebhookDelivery>(`/webhooks/deliveries${query(filters.values)}`);
  const [retryError, setRetryError] = useState<string | null>(null);
  return (
    <>
      <h2>{t('Delivery log')}</h2>
      <form
        className="filters"
        aria-label={t('Delivery filters')}
        onSubmit={(event) => event.preventDefault()}
      >
        <Field
          form={filters}
          name="status"
          label={t('Status')}
          options={[
            ['', t('All')],
            ...['pending', 'delivered', 'failed'].map((s): [string, string] => [s, t(s)]),
          ]}
        />
        <Field
          form={filters}
          name="event_type"
          label={t('Event')}
          options={[['', t('All')], ...EVENT_TYPES.map((type): [string, string] => [type, eventName(type)])]}
        />
        <Field
          form={filters}
          name="endpoint_id"
          label={t('Endpoint')}
          options={[['', t('All')], ...endpoints.map((e): [string, string] => [e.id, e.url])]}
        />
        <button type="button" className="secondary" onClick={deliveries.reload}>
          {t('Refresh')}
        </button>
      </form>
      {retryError && (
        <p className="error" role="alert">
          {retryError}
        </p>
      )}
      <ListTable
        paged={deliveries}
        empty={t('No deliveries match. Events are delivered to your endpoints as payments move.')}
        rowData={(delivery) => ({ 'data-event-type': delivery.event_type, 'data-status': delivery.status })}
        columns={[
          { label: t('Created'), cell: (delivery) => <When at={delivery.created_at} /> },
          { label: t('Event'), cell: (delivery) => eventName(delivery.event_type) },
          { label: t('Status'), cell: (delivery) => <Status value={delivery.status} /> },
          { label: t('Attempts'), num: true, cell: (delivery) => delivery.attempts },
          {
            label: t('Last answer'),
            cell: (delivery) => delivery.last_status_code ?? delivery.last_error ?? '—',
          },
          {
            label: '',
            cell: (delivery) =>
              delivery.status !== 'pending' && (
                <button
                  type="button"
                  className="secondary"
                  onClick={async () => {
                    setRetryError(null);
                    await api('POST', `/webhooks/deliveries/${delivery.id}/retry`).catch((error: Error) =>
                      setRetryError(error.message),
                    );
                    deliveries.reload();
                  }}
                >
                  {t('Retry')}
                </button>
              ),
          },
        ]}
      />
    </>
  );
}
