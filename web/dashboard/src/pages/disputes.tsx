import { api } from '../api.ts';
import { Field, FormShell, ListTable, Money, Page, useForm, usePaged, When } from '../components.tsx';
import { t } from '../i18n.ts';
import type { Dispute } from '../schema.ts';

/** The status of a dispute in words: the API's codes are for programs. */
function statusLabel(status: Dispute['status']): string {
  if (status === 'open') return t('Open: send a defense');
  if (status === 'under_review') return t('Under review');
  if (status === 'closed_returned') return t('Closed: returned to the payer');
  return t('Closed: rejected, the money stays');
}

/** MED infractions on PIX received: what each holds, until when a defense is taken, and the form to send one. */
export function Disputes() {
  const list = usePaged<Dispute>('/disputes');
  const open = list.items.filter((dispute) => dispute.status === 'open');
  const form = useForm({ dispute_id: '', text: '', evidence: '' });
  return (
    <Page
      title={t('Disputes')}
      intro={t(
        'A payer’s bank disputed these PIX (MED). While open, the amount is held in locked and cannot be paid out or converted.',
      )}
    >
      <ListTable
        paged={list}
        empty={t('No disputes.')}
        columns={[
          { label: t('Status'), cell: (dispute) => statusLabel(dispute.status) },
          { label: t('Amount'), cell: (dispute) => <Money minor={dispute.amount_minor} currency="BRL" /> },
          { label: t('Held'), cell: (dispute) => <Money minor={dispute.held_minor} currency="BRL" /> },
          { label: t('Reason'), cell: (dispute) => dispute.reason },
          { label: t('Defense deadline'), cell: (dispute) => <When at={dispute.deadline_at} /> },
          { label: t('Payment'), cell: (dispute) => dispute.payment_id },
        ]}
      />
      {open.length > 0 && (
        <FormShell
          form={form}
          title={t('Send a defense')}
          submitLabel={t('Send defense')}
          onSubmit={() =>
            form.submit(async (values) => {
              const evidence = values.evidence
                .split('\n')
                .map((line) => line.trim())
                .filter(Boolean);
              await api('POST', `/disputes/${values.dispute_id || open[0]!.id}/defense`, {
                text: values.text,
                ...(evidence.length ? { evidence } : {}),
              });
              form.reset();
              list.reload();
              return t('Defense sent.');
            })
          }
        >
          <Field
            form={form}
            name="dispute_id"
            label={t('Dispute')}
            options={open.map(
              (dispute) => [dispute.id, `${dispute.reason} · ${dispute.amount_minor}`] as [string, string],
            )}
          />
          <Field form={form} name="text" label={t('Defense')} required />
          <Field
            form={form}
            name="evidence"
            label={t('Evidence')}
            hint={t('Links (https://…) or file ids, one per line; at most 10.')}
          />
        </FormShell>
      )}
    </Page>
  );
}
