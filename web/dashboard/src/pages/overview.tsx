import { Empty, Money, Page, TableScroll, useLoad } from '../components.tsx';
import { t } from '../i18n.ts';
import { href, onLinkClick } from '../router.ts';
import type { Balance, Customers, Workspace } from '../schema.ts';
import { DailyCharts } from './daily-charts.tsx';
import type { PageProps } from './types.ts';

const KINDS = ['available', 'pending', 'locked', 'trading'] as const;

/** Balances per party and currency, one column per kind. */
export function Overview({ env }: PageProps) {
  const balances = useLoad<Balance[]>('/balances');
  const parties = useLoad<Customers>('/customers?limit=100');
  const workspace = useLoad<Workspace>('/workspace');
  const rows = new Map<string, Record<string, string>>();
  for (const row of balances.data ?? []) {
    const key = `${row.party_id}|${row.currency}`;
    rows.set(key, { ...(rows.get(key) ?? {}), [row.kind]: row.balance_minor });
  }
  const partyName = (id: string) =>
    id === workspace.data?.default_party_id
      ? `${workspace.data.display_name} (${t('main account')})`
      : (parties.data?.find((party) => party.id === id)?.display_name ?? id.slice(0, 8));
  const allZero = [...rows.values()].every((kinds) => Object.values(kinds).every((value) => value === '0'));
  return (
    <Page title={t('Balances')} intro={t('What each party holds, per currency.')}>
      {balances.error && <p className="error">{balances.error.message}</p>}
      <TableScroll label={t('Balances')}>
        <table>
          <caption className="visually-hidden">{t('Balances')}</caption>
          <thead>
            <tr>
              <th scope="col">{t('Party')}</th>
              <th scope="col">{t('Currency')}</th>
              {KINDS.map((kind) => (
                <th scope="col" key={kind} className="num">
                  {t(kind)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {[...rows.entries()].map(([key, kinds]) => {
              const [party = '', currency = 'BRL'] = key.split('|');
              return (
                <tr key={key}>
                  <td>{partyName(party)}</td>
                  <td>{currency}</td>
                  {KINDS.map((kind) => (
                    <td key={kind} className="num" data-testid={`balance-${currency}-${kind}`}>
                      <Money minor={kinds[kind] ?? '0'} currency={currency} />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableScroll>
      <DailyCharts />
      {balances.data && allZero && (
        <Empty>
          {env === 'sandbox' ? (
            <>
              {t('Nothing here yet.')}{' '}
              <a href={href('sandbox')} onClick={(event) => onLinkClick(event, 'sandbox')}>
                {t('Simulate a PIX cash-in')}
              </a>{' '}
              {t('to try the balance, or create a payment link.')}
            </>
          ) : (
            t('Nothing here yet. Receive a PIX charge or a payment link payment to see money arrive.')
          )}
        </Empty>
      )}
    </Page>
  );
}
