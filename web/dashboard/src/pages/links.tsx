import { useState } from 'react';
import { api } from '../api.ts';
import {
  Empty,
  Field,
  FormShell,
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
import type { PaymentLink, SavedSplits, Splits as SplitList } from '../schema.ts';
import { minorOf } from './amount.ts';
import { usePartyOptions } from './parties.ts';

/** Payment links (fixed or open amount) with their hosted page and their splits. */
export function Links() {
  const links = usePaged<PaymentLink>('/payment-links');
  const form = useForm({ title: '', amount_minor: '', slug: '', description: '' });
  const [open, setOpen] = useState<string | null>(null);
  return (
    <Page title={t('Payment links')} intro={t('A link opens a hosted PIX checkout page anyone can pay.')}>
      <FormShell
        form={form}
        title={t('Create a payment link')}
        submitLabel={t('Create link')}
        onSubmit={() =>
          form.submit(async (values) => {
            await api('POST', '/payment-links', {
              title: values.title,
              ...(values.amount_minor
                ? { amount_minor: minorOf(values.amount_minor, 'BRL') }
                : { allow_custom_amount: true }),
              ...(values.slug ? { slug: values.slug } : {}),
              ...(values.description ? { description: values.description } : {}),
            });
            form.reset();
            links.reload();
            return t('Link created.');
          })
        }
      >
        <Field form={form} name="title" label={t('Title')} required />
        <Field
          form={form}
          name="amount_minor"
          label={t('Amount (R$)')}
          inputMode="decimal"
          hint={t('Leave empty to let the payer choose the amount.')}
        />
        <Field
          form={form}
          name="slug"
          label={t('Address (slug)')}
          hint={t('Lower-case letters, digits and dashes; random when empty.')}
        />
        <Field form={form} name="description" label={t('Description')} />
      </FormShell>
      <h2>{t('Links')}</h2>
      <ListTable
        paged={links}
        empty={t('No payment links yet. Create one above and share its address.')}
        rowData={(link) => ({ 'data-slug': link.slug })}
        columns={[
          { label: t('Title'), cell: (link) => link.title ?? link.slug },
          {
            label: t('Amount'),
            num: true,
            cell: (link) =>
              link.amount_minor ? (
                <Money minor={link.amount_minor} currency={link.currency} />
              ) : (
                t('Payer chooses')
              ),
          },
          { label: t('Status'), cell: (link) => <Status value={link.status} /> },
          {
            label: t('Hosted page'),
            cell: (link) => (
              <a href={link.url} target="_blank" rel="noopener">
                {link.url}
              </a>
            ),
          },
          { label: t('Created'), cell: (link) => <When at={link.created_at} /> },
          {
            label: '',
            cell: (link) => (
              <span className="actions">
                <button
                  type="button"
                  className="secondary"
                  onClick={() => setOpen(open === link.id ? null : link.id)}
                >
                  {t('Splits')}
                </button>
                <button
                  type="button"
                  className="secondary"
                  onClick={async () => {
                    await api('PATCH', `/payment-links/${link.id}`, {
                      status: link.status === 'active' ? 'inactive' : 'active',
                    });
                    links.reload();
                  }}
                >
                  {link.status === 'active' ? t('Deactivate') : t('Activate')}
                </button>
              </span>
            ),
          },
        ]}
      />
      {open && <Splits linkId={open} key={open} />}
    </Page>
  );
}

/** A split as the form sends it: who receives, which share (basis points) and an optional label. */
type SplitLine = Pick<SplitList[number], 'party_id' | 'share_bps' | 'recipient_label'>;

/** The link's split set: each line a party and a percentage of the net amount; the rest stays with you. */
function Splits({ linkId }: { linkId: string }) {
  const parties = usePartyOptions().slice(1);
  const loaded = useLoad<SplitList>(`/payment-links/${linkId}/splits`);
  const [saved, setSplits] = useState<SavedSplits | null>(null);
  const form = useForm({ party_id: '', percent: '', splits: '' });
  const splits = saved ?? loaded.data;
  if (splits === null) return <p role="status">{t('Loading…')}</p>;
  const save = (next: SplitLine[]) =>
    form.submit(async () => {
      const saved = await api<SavedSplits>('PUT', `/payment-links/${linkId}/splits`, {
        splits: next.map(({ party_id, share_bps, recipient_label }) => ({
          party_id,
          share_bps,
          ...(recipient_label ? { recipient_label } : {}),
        })),
      });
      setSplits(saved);
      return t('Splits saved.');
    });
  const name = (id: string) => parties.find(([party]) => party === id)?.[1] ?? id.slice(0, 8);
  return (
    <section aria-labelledby="splits-title">
      <h2 id="splits-title">{t('Splits')}</h2>
      {splits.length === 0 ? (
        <Empty>{t('No splits: the whole amount goes to you. Add a customer below to share it.')}</Empty>
      ) : (
        <ul className="rows">
          {splits.map((split) => (
            <li key={split.party_id}>
              {name(split.party_id)}: {(split.share_bps / 100).toLocaleString()}%{' '}
              <button
                type="button"
                className="link"
                onClick={() => save(splits.filter((s) => s.party_id !== split.party_id))}
              >
                {t('Remove')}
              </button>
            </li>
          ))}
        </ul>
      )}
      {parties.length === 0 ? (
        <Empty>{t('Splits go to your customers: create one on the Customers page first.')}</Empty>
      ) : (
        <FormShell
          form={form}
          submitLabel={t('Add split')}
          onSubmit={() => {
            const percent = Number(form.values.percent.replace(',', '.'));
            const bps = Math.round(percent * 100);
            if (!form.values.party_id) return form.fail('party_id', t('Choose who receives the share.'));
            if (!(bps >= 1 && bps <= 10000))
              return form.fail('percent', t('Enter a percentage between 0.01 and 100.'));
            return save([
              ...splits.filter((s) => s.party_id !== form.values.party_id),
              { party_id: form.values.party_id, share_bps: bps, recipient_label: null },
            ]);
          }}
        >
          <Field
            form={form}
            name="party_id"
            label={t('Recipient')}
            options={[['', t('Choose…')], ...parties]}
          />
          <Field form={form} name="percent" label={t('Share (%)')} inputMode="decimal" />
          {form.fieldError('splits') && <p className="error">{form.fieldError('splits')}</p>}
        </FormShell>
      )}
    </section>
  );
}
