import { useState } from 'react';
import { api, download, query } from '../api.ts';
import {
  Field,
  FormShell,
  ListTable,
  LocalError,
  Money,
  Page,
  useForm,
  usePaged,
  When,
} from '../components.tsx';
import { t } from '../i18n.ts';
import type { ReconciliationRunDetail, ReconciliationRunItem, UnassignedPixItem } from '../schema.ts';
import { usePartyOptions } from './parties.ts';

/** A reconciliation's outcome in words. */
const runStatus = (run: ReconciliationRunItem) =>
  run.status === 'agreed' ? t('Books agree') : t('{count} findings', { count: String(run.findings_count) });

/** The finding kinds in words: the API's codes are for programs. */
const FINDING_KINDS: Record<string, string> = {
  missing_pix: 'The PSP received a PIX the books lack',
  amount_mismatch: 'Amounts differ',
  unknown_to_psp: 'The PSP does not know this transfer',
  return_not_reflected: 'A return the books have not applied',
  status_mismatch: 'The PSP has it in another state',
};

/** The days of the last week, as the findings CSV's bounds. */
const lastWeek = () => {
  const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
  return { from: day(-7), to: day(0) };
};

/** Daily and on-demand comparisons of the PIX books with the PSP, their findings, and held PIX. */
export function Reconciliation() {
  const runs = usePaged<ReconciliationRunItem>('/reconciliation/runs');
  const [detail, setDetail] = useState<ReconciliationRunDetail | undefined>();
  const csv = useForm(lastWeek());
  const exportCsv = () =>
    csv.submit(async ({ from, to }) => {
      if (!from) throw new LocalError('from', t('Choose the first day to export.'));
      if (!to) throw new LocalError('to', t('Choose the last day to export.'));
      const file = await download(`/reconciliation/findings.csv${query({ from, to })}`, 'text/csv');
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file.blob);
      link.download = file.filename ?? `reconciliation-${from}-${to}.csv`;
      link.click();
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      return t('CSV file downloaded.');
    });
  return (
    <Page
      title={t('Reconciliation')}
      intro={t('Each day Lastro compares its PIX books with the PSP’s records. What differs is listed here.')}
    >
      <ListTable
        paged={runs}
        empty={t('No reconciliation yet: the first daily run comes after the first full day.')}
        columns={[
          { label: t('Day compared'), cell: (run) => <When at={run.from} /> },
          { label: t('Started by'), cell: (run) => t(run.trigger) },
          { label: t('Outcome'), cell: (run) => runStatus(run) },
          { label: t('PIX at the PSP'), num: true, cell: (run) => String(run.psp_pix_count) },
          {
            label: t('Findings'),
            cell: (run) => (
              <button
                type="button"
                className="secondary"
                onClick={() =>
                  void api<ReconciliationRunDetail>('GET', `/reconciliation/runs/${run.id}`).then(setDetail)
                }
              >
                {t('See findings')}
              </button>
            ),
          },
        ]}
      />
      {detail && <Findings run={detail} />}
      <form className="filters" aria-label={t('Findings CSV')} onSubmit={(event) => event.preventDefault()}>
        <Field form={csv} name="from" label={t('From')} type="date" />
        <Field form={csv} name="to" label={t('To (inclusive)')} type="date" />
        <button type="button" className="secondary" disabled={csv.busy} onClick={() => void exportCsv()}>
          {csv.busy ? t('Preparing the file…') : t('Export findings CSV')}
        </button>
        <span role="status">{csv.done}</span>
      </form>
      <HeldPix />
    </Page>
  );
}

function Findings({ run }: { run: ReconciliationRunDetail }) {
  return (
    <section aria-label={t('Findings')}>
      <h2>{t('Findings')}</h2>
      {run.findings.length === 0 ? (
        <p>{t('Books agree')}</p>
      ) : (
        <ul>
          {run.findings.map((finding) => (
            <li key={finding.id}>
              <strong>{t(FINDING_KINDS[finding.kind] ?? finding.kind)}</strong>
              {finding.end_to_end_id ? ` · ${finding.end_to_end_id}` : ''}
              {finding.expected_minor !== null && (
                <>
                  {' · '}
                  {t('Books')}: <Money minor={finding.expected_minor} currency="BRL" />
                </>
              )}
              {finding.found_minor !== null && (
                <>
                  {' · '}
                  {t('PSP')}: <Money minor={finding.found_minor} currency="BRL" />
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** PIX that reached the workspace's key without a charge: held until assigned to a party or returned. */
function HeldPix() {
  const held = usePaged<UnassignedPixItem>(`/pix/unassigned${query({ status: 'unassigned' })}`);
  const parties = usePartyOptions();
  const form = useForm({ id: '', party_id: '' });
  const resolve = (action: 'assign' | 'return') =>
    form.submit(async ({ id, party_id }) => {
      const chosen = id || held.items[0]?.id;
      if (!chosen) throw new LocalError('id', t('Choose a PIX.'));
      const body = action === 'assign' && party_id ? { party_id } : action === 'assign' ? {} : undefined;
      await api('POST', `/pix/unassigned/${chosen}/${action}`, body);
      form.reset();
      held.reload();
      return action === 'assign' ? t('Credited to the party.') : t('Sent back to the payer.');
    });
  return (
    <section aria-label={t('PIX without a charge')}>
      <h2>{t('PIX without a charge')}</h2>
      <ListTable
        paged={held}
        empty={t('No PIX waiting: every PIX received matched a charge.')}
        columns={[
          { label: t('Received'), cell: (pix) => <When at={pix.received_at} /> },
          { label: t('Amount'), num: true, cell: (pix) => <Money minor={pix.amount_minor} currency="BRL" /> },
          { label: t('Payer'), cell: (pix) => pix.payer_info ?? '' },
          { label: t('End-to-end id'), cell: (pix) => pix.end_to_end_id },
        ]}
      />
      {held.items.length > 0 && (
        <FormShell
          form={form}
          title={t('Assign or return')}
          submitLabel={t('Credit to the party')}
          onSubmit={() => void resolve('assign')}
        >
          <Field
            form={form}
            name="id"
            label={t('PIX')}
            options={held.items.map(
              (pix) => [pix.id, `${pix.end_to_end_id} · ${pix.amount_minor}`] as [string, string],
            )}
          />
          <Field form={form} name="party_id" label={t('Party')} options={parties} />
          <button
            type="button"
            className="secondary"
            disabled={form.busy}
            onClick={() => void resolve('return')}
          >
            {t('Return to the payer')}
          </button>
        </FormShell>
      )}
    </section>
  );
}
