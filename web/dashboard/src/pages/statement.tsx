import { useState } from 'react';
import { api, query } from '../api.ts';
import { Field, ListTable, Money, Page, useForm, usePaged, When } from '../components.tsx';
import { t } from '../i18n.ts';
import { decimalString } from '../money.ts';
import type { StatementLine } from '../schema.ts';
import { usePartyOptions } from './parties.ts';

/** A date input's day as the API's bound: from is inclusive, to exclusive (so the end day is included). */
const bound = (day: string, next: boolean) => {
  if (!day) return undefined;
  const date = new Date(`${day}T00:00:00`);
  if (next) date.setDate(date.getDate() + 1);
  return date.toISOString();
};

const csvCell = (value: string) => (/[",\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value);

/** The ledger statement over a date range, with a CSV of every line in it. */
export function Statement() {
  const filters = useForm({ from: '', to: '', party_id: '' });
  const parties = usePartyOptions();
  const params = {
    from: bound(filters.values.from, false),
    to: bound(filters.values.to, true),
    party_id: filters.values.party_id,
  };
  const lines = usePaged<StatementLine>(`/statement${query(params)}`, 50);
  const [exporting, setExporting] = useState<string | null>(null);

  async function exportCsv() {
    setExporting(t('Preparing the file…'));
    const rows = [
      [
        'posted_at',
        'party_id',
        'currency',
        'kind',
        'direction',
        'amount_minor',
        'amount',
        'reference_type',
        'reference_id',
      ],
    ];
    let cursor: string | undefined;
    // Bounded: a very long range is better narrowed than downloaded for minutes.
    for (let page = 0; page < 200; page++) {
      const batch = await api<StatementLine[]>(
        'GET',
        `/statement${query({ ...params, limit: 100, cursor })}`,
      );
      for (const l of batch)
        rows.push([
          l.posted_at,
          l.party_id,
          l.currency,
          l.kind,
          l.direction,
          l.amount_minor,
          decimalString(l.amount_minor, l.currency),
          l.reference_type,
          l.reference_id,
        ]);
      if (batch.length < 100) break;
      cursor = batch.at(-1)?.id;
    }
    const blob = new Blob([`${rows.map((row) => row.map(csvCell).join(',')).join('\n')}\n`], {
      type: 'text/csv',
    });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = `statement-${filters.values.from || 'start'}-${filters.values.to || 'now'}.csv`;
    link.click();
    URL.revokeObjectURL(link.href);
    setExporting(t('{count} lines exported.', { count: rows.length - 1 }));
  }

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
        <button type="button" className="secondary" onClick={() => void exportCsv()}>
          {t('Export CSV')}
        </button>
        <span role="status">{exporting}</span>
      </form>
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
