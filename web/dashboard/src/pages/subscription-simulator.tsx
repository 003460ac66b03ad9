import { api } from '../api.ts';
import { Field, FormShell, LocalError, useForm, useLoad, When } from '../components.tsx';
import { t } from '../i18n.ts';
import type { Subscription, TestClock } from '../schema.ts';

const DAY_MS = 86_400_000;

/** Whole days from the sandbox's now to the same day `months` later (a month is not a fixed length). */
function daysOf(count: number, unit: string, now: string): number {
  if (unit === 'days') return count;
  const from = new Date(now);
  const to = new Date(from);
  to.setUTCMonth(to.getUTCMonth() + count);
  return Math.round((to.getTime() - from.getTime()) / DAY_MS);
}

/**
 * Sandbox only: the payer's side (authorise, refuse, a payment that fails) and the workspace's test
 * clock, moved ahead so the cycle task runs the cycles that fall due, as it would in those days.
 */
export function SubscriptionSimulator({ sub, onChange }: { sub: Subscription; onChange: () => void }) {
  const clock = useLoad<TestClock>('/test-clock');
  const payer = useForm({});
  const advance = useForm({ count: '1', unit: 'months' });
  const simulate = (path: string, body: unknown, done: string) =>
    payer.submit(async () => {
      await api('POST', `/simulate/subscriptions/${sub.id}/${path}`, body);
      onChange();
      return done;
    });
  return (
    <section aria-label={t('Sandbox: simulate')}>
      <h2>{t('Sandbox: simulate')}</h2>
      <div className="grid">
        {sub.status === 'pending_authorisation' && (
          <FormShell
            form={payer}
            title={t('The payer')}
            submitLabel={t('Payer authorises')}
            onSubmit={() => void simulate('authorise', { approve: true }, t('Authorised by the payer.'))}
          >
            <p className="hint">{t('What the payer does at their bank.')}</p>
            <button
              type="button"
              className="secondary"
              disabled={payer.busy}
              onClick={() => void simulate('authorise', { approve: false }, t('Refused by the payer.'))}
            >
              {t('Payer refuses')}
            </button>
          </FormShell>
        )}
        {sub.status === 'active' && (
          <FormShell
            form={payer}
            title={t('The payer')}
            submitLabel={t('Next payment fails')}
            onSubmit={() =>
              void simulate('fail-payments', { attempts: 1 }, t('The next payment attempt will fail.'))
            }
          >
            <p className="hint">{t('The payer’s account has no funds at the next attempt.')}</p>
          </FormShell>
        )}
        <FormShell
          form={advance}
          title={t('Test clock')}
          submitLabel={t('Advance the clock')}
          onSubmit={() =>
            advance.submit(async (values) => {
              const count = Number.parseInt(values.count, 10);
              if (!(count >= 1 && count <= 120) || !/^\d+$/.test(values.count.trim()))
                throw new LocalError('count', t('Enter a whole number from 1 to 120.'));
              const now = clock.data?.now ?? new Date().toISOString();
              await api('POST', '/test-clock/advance', { days: daysOf(count, values.unit, now) });
              await api('POST', '/simulate/subscriptions/run-cycles');
              clock.reload();
              onChange();
              return t('Clock advanced; the cycles due ran.');
            })
          }
        >
          <p className="hint" data-testid="sandbox-now">
            {t('Sandbox now:')} <When at={clock.data?.now} />
          </p>
          <Field form={advance} name="count" label={t('How much')} inputMode="numeric" required />
          <Field
            form={advance}
            name="unit"
            label={t('Unit')}
            options={[
              ['days', t('days')],
              ['months', t('months')],
            ]}
          />
        </FormShell>
      </div>
    </section>
  );
}
