import { useEffect, useState } from 'react';
import { api } from '../api.ts';
import { Field, FormShell, Money, Page, useForm } from '../components.tsx';
import { t } from '../i18n.ts';
import { CURRENCIES } from '../money.ts';
import { navigate } from '../router.ts';
import type { Quote, QuoteExecution } from '../schema.ts';
import { minorOf } from './amount.ts';

/** Seconds left until `at`, ticking every second. */
function useSecondsLeft(at: string | undefined): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return at ? Math.max(0, Math.ceil((new Date(at).getTime() - now) / 1000)) : 0;
}

/** Convert between BRL and stablecoins: ask a quote, then execute it before it expires. */
export function Rfq() {
  const form = useForm({ base_currency: 'BRL', quote_currency: 'USDT', base_amount_minor: '' });
  const execute = useForm({});
  const [quote, setQuote] = useState<Quote | null>(null);
  const left = useSecondsLeft(quote?.expires_at);
  const expired = quote !== null && left === 0;
  return (
    <Page
      title={t('Convert (RFQ)')}
      intro={t('A quote holds its rate for a few seconds; execute it before it expires.')}
    >
      <FormShell
        form={form}
        title={t('Ask for a quote')}
        submitLabel={t('Get quote')}
        onSubmit={() =>
          form.submit(async (values) => {
            setQuote(
              await api<Quote>('POST', '/rfq/quote', {
                base_currency: values.base_currency,
                quote_currency: values.quote_currency,
                base_amount_minor: minorOf(
                  values.base_amount_minor,
                  values.base_currency,
                  'base_amount_minor',
                ),
              }),
            );
          })
        }
      >
        <Field form={form} name="base_currency" label={t('You pay in')} options={CURRENCIES} />
        <Field form={form} name="quote_currency" label={t('You receive in')} options={CURRENCIES} />
        <Field form={form} name="base_amount_minor" label={t('Amount to pay')} inputMode="decimal" required />
      </FormShell>
      {quote && (
        <section className="form" aria-labelledby="quote-title">
          <h2 id="quote-title">{t('Quote')}</h2>
          <dl className="facts">
            <dt>{t('You pay')}</dt>
            <dd>
              <Money minor={quote.base_amount_minor} currency={quote.base_currency} />
            </dd>
            <dt>{t('You receive')}</dt>
            <dd>
              <Money minor={quote.quote_amount_minor} currency={quote.quote_currency} />
            </dd>
            <dt>{t('Rate')}</dt>
            <dd>{quote.rate}</dd>
            <dt>{t('Fee')}</dt>
            <dd>
              <Money minor={quote.fee_minor} currency={quote.fee_currency} />
            </dd>
          </dl>
          <p className="countdown" role="timer" aria-live="off">
            {expired
              ? t('This quote has expired. Ask for a new one.')
              : t('Expires in {seconds} s', { seconds: left })}
          </p>
          <FormShell
            form={execute}
            submitLabel={t('Execute')}
            onSubmit={() =>
              execute.submit(async () => {
                const payment = await api<QuoteExecution>(
                  'POST',
                  '/rfq/execute',
                  { quote_id: quote.id },
                  { idempotent: true },
                );
                navigate(`payments/${payment.id}`);
              })
            }
          >
            {null}
          </FormShell>
        </section>
      )}
    </Page>
  );
}
