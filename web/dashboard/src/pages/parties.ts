import { useLoad } from '../components.tsx';
import { t } from '../i18n.ts';
import type { Customers } from '../schema.ts';

/** The party choices of a form: the workspace's own account (empty: the API's default) and its customers. */
export function usePartyOptions(): [string, string][] {
  const customers = useLoad<Customers>('/customers?limit=100');
  return [
    ['', t('Main account')],
    ...(customers.data ?? []).map((party): [string, string] => [party.id, party.display_name]),
  ];
}
