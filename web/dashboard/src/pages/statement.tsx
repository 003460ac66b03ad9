import { download, query } from '../api.ts';
import { Field, ListTable, LocalError, Money, Page, useForm, usePaged, When } from '../components.tsx';
import { t } from '../i18n.ts';
import type { StatementLine } from '../schema.ts';
import { usePartyOptions } from './parties.ts';

/** A date input's day as the API's bound: from is inclusive, to exclusive (so the end day is included). */
const bound = (day: string, next: boolean) => {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (next) date.setDate(date.getDate() + 1);
  return date.toISOString();
};

/** The export's days are São Paulo's, the API's default zone, whatever the browser's own. */
const EXPORT_TIME_ZONE = 'America/Sao_Paulo';

/** The ledger statement over a date range, with the API's CSV of every line in it. */
export function Statement() {
  const filters = useForm({ from: '', to: '', party_id: '' });
  const parties = usePartyOptions();
  const params = {
    from: bound(filters.values.from, false),
    to: bound(filters.values.to, true),
    party_id: filters.values.party_id,
  };
  const lines = usePaged<StatementLine>(`/statement${query(params)}`, 50);

  const exportCsv = () =>
    filters.submit(async ({ from, to, party_id }) => {
      if (!from) throw new LocalError('from', t('Choose the first day to export.'));
      if (!to) throw new LocalError('to', t('Choose the last day to export.'));
      // The API takes plain days as whole days in its time zone and streams the file.
      const file = await download(`/statement.csv${query({ from, to, party_id })}`, 'text/csv');
      const link = document.createElement('a');
      link.href = URL.createObjectURL(file.blob);
      link.download = file.filename ?? `statement-${from}-${to}.csv`;
      link.click();
      // The browser reads the file from its URL after click() returns; revoked at once, a slow one
      // may find it gone. The file is not read again here: a long range is large enough to count.
      setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
      return t('CSV file downloaded.');
    });

  return (
    <Page title={t('Statement')}>
      <form className="filters" aria-label={t('Filters')} onSubmit={(event) => event.preventDefault()}>
        <Field form={filters} name="from" label={t('From')} type="date" />
        <Field form={filters} name="to" label={t('To (inclusive)')} type="date" />
        <Field
          form={filters}
          name="party_id"
          label={t('Party')}
          options={[['', t('All')], ...parties.slice(1)]}
        />
        <button type="button" className="secondary" disabled={filters.busy} onClick={() => void exportCsv()}>
          {filters.busy ? t('Preparing the file…') : t('Export CSV')}
        </button>
        <span role="status">{filters.done}</span>
      </form>
      {filters.general && (
        <p className="error general" role="alert">
          {filters.general}
        </p>
      )}
      <p className="hint">
        {t('The CSV counts days and shows times in {zone}.', { zone: EXPORT_TIME_ZONE })}
      </p>
      <ListTable
        paged={lines}
        empty={t('No ledger lines in this range. Widen the dates or move some money first.')}
        columns={[
          { label: t('Posted'), cell: (line) => <When at={line.posted_at} /> },
          { label: t('Currency'), cell: (line) => line.currency },
          { label: t('Balance'), cell: (line) => t(line.kind) },
          { label: t('Direction'), cell: (line) => t(line.direction) },
          {
            label: t('Amount'),
            num: true,
            cell: (line) => (
              <span className={line.direction}>
                {line.direction === 'debit' ? '−' : '+'}
                <Money minor={line.amount_minor} currency={line.currency} />
              </span>
            ),
          },
          { label: t('Reference'), cell: (line) => t(line.reference_type) },
        ]}
      />
    </Page>
  );
}
