import { api, query } from '../api.ts';
import {
  CopyButton,
  Field,
  FormShell,
  ListRows,
  ListTable,
  LocalError,
  Money,
  Page,
  Status,
  useForm,
  usePaged,
  When,
} from '../components.tsx';
import { t } from '../i18n.ts';
import { navigate } from '../router.ts';
import type { CryptoSendResult, Payment, Wallet } from '../schema.ts';
import { minorOf } from './amount.ts';
import { NETWORKS } from './networks.ts';
import { usePartyOptions } from './parties.ts';
import type { PageProps } from './types.ts';

const STABLECOINS = ['USDT', 'USDC'];

/** Wallets (one address per network), their transactions, deposits in the sandbox, and crypto sends. */
export function Wallets({ session, env }: PageProps) {
  const wallets = usePaged<Wallet>('/wallets');
  const parties = usePartyOptions();
  const create = useForm({ network: 'polygon', wallet_name: '', party_id: '' });
  const deposit = useForm({ wallet_id: '', currency: 'USDT', amount_minor: '' });
  return (
    <Page title={t('Wallets and crypto')}>
      <div className="grid">
        <FormShell
          form={create}
          title={t('Create a wallet')}
          submitLabel={t('Create wallet')}
          onSubmit={() =>
            create.submit(async (values) => {
              await api('POST', '/wallets', {
                network: values.network,
                ...(values.wallet_name ? { wallet_name: values.wallet_name } : {}),
                ...(values.party_id ? { party_id: values.party_id } : {}),
              });
              wallets.reload();
              return t('Wallet created.');
            })
          }
        >
          <Field form={create} name="network" label={t('Network')} options={[...NETWORKS]} />
          <Field form={create} name="wallet_name" label={t('Name')} />
          <Field form={create} name="party_id" label={t('Owner')} options={parties} />
        </FormShell>
        <CryptoSend twoFactor={session.twoFactor} />
        {env === 'sandbox' && wallets.items.length > 0 && (
          <FormShell
            form={deposit}
            title={t('Simulate a deposit')}
            submitLabel={t('Deposit')}
            onSubmit={() =>
              deposit.submit(async (values) => {
                if (!values.wallet_id) throw new LocalError('wallet_id', t('Choose a wallet.'));
                await api(
                  'POST',
                  '/simulate/crypto/deposit',
                  {
                    wallet_id: values.wallet_id,
                    currency: values.currency,
                    amount_minor: minorOf(values.amount_minor, values.currency),
                  },
                  { idempotent: true },
                );
                return t('Deposit received.');
              })
            }
          >
            <Field
              form={deposit}
              name="wallet_id"
              label={t('Wallet')}
              options={[
                ['', t('Choose…')],
                ...wallets.items.map((w): [string, string] => [
                  w.id,
                  `${w.network} · ${w.address.slice(0, 10)}…`,
                ]),
              ]}
            />
            <Field form={deposit} name="currency" label={t('Currency')} options={STABLECOINS} />
            <Field form={deposit} name="amount_minor" label={t('Amount')} inputMode="decimal" required />
          </FormShell>
        )}
      </div>
      <h2>{t('Wallets')}</h2>
      <ListTable
        paged={wallets}
        empty={t('No wallets yet. Create one above to receive USDT or USDC.')}
        columns={[
          { label: t('Network'), cell: (wallet) => wallet.network },
          {
            label: t('Address'),
            cell: (wallet) => (
              <>
                <code>{wallet.address}</code> <CopyButton text={wallet.address} />
              </>
            ),
          },
          { label: t('Name'), cell: (wallet) => wallet.wallet_name ?? '' },
          { label: t('Created'), cell: (wallet) => <When at={wallet.created_at} /> },
        ]}
      />
      <CryptoPayments />
    </Page>
  );
}

function CryptoSend({ twoFactor }: { twoFactor: boolean }) {
  const form = useForm({
    network: 'polygon',
    currency: 'USDT',
    to_address: '',
    amount_minor: '',
    otp_code: '',
  });
  return (
    <FormShell
      form={form}
      title={t('Send crypto')}
      submitLabel={t('Send')}
      onSubmit={() =>
        form.submit(async (values) => {
          if (twoFactor && !/^\d{6}$/.test(values.otp_code.trim()))
            throw new LocalError('otp_code', t('Enter the 6-digit code from your authenticator app.'));
          const payment = await api<CryptoSendResult>(
            'POST',
            '/crypto/send',
            {
              network: values.network,
              currency: values.currency,
              to_address: values.to_address.trim(),
              amount_minor: minorOf(values.amount_minor, values.currency),
            },
            { idempotent: true, otp: twoFactor ? values.otp_code.trim() : undefined },
          );
          navigate(`payments/${payment.id}`);
        })
      }
    >
      <Field form={form} name="network" label={t('Network')} options={[...NETWORKS]} />
      <Field form={form} name="currency" label={t('Currency')} options={STABLECOINS} />
      <Field form={form} name="to_address" label={t('Destination address')} required />
      <Field form={form} name="amount_minor" label={t('Amount')} inputMode="decimal" required />
      {twoFactor && (
        <Field
          form={form}
          name="otp_code"
          label={t('Authenticator code')}
          inputMode="numeric"
          autoComplete="one-time-code"
          hint={t('Two-factor authentication is on: sends need the current code.')}
          required
        />
      )}
    </FormShell>
  );
}

function CryptoPayments() {
  const sends = usePaged<Payment>(`/payments${query({ kind: 'crypto_send' })}`, 10);
  return (
    <>
      <h2>{t('Recent sends')}</h2>
      <ListRows
        paged={sends}
        empty={t('No crypto sends yet.')}
        row={(send) => (
          <>
            <Money minor={send.amount_minor} currency={send.currency} /> → <code>{send.to_address}</code> (
            {send.network}) <Status value={send.status} /> <When at={send.created_at} />
          </>
        )}
      />
    </>
  );
}
