import { api, query } from '../api.ts';
import {
  AppLink,
  Day,
  Field,
  FormShell,
  ListTable,
  LocalError,
  Money,
  Page,
  Status,
  TableScroll,
  useForm,
  useLoad,
  usePaged,
  When,
} from '../components.tsx';
import { t } from '../i18n.ts';
import type { Subscription, SubscriptionCycle } from '../schema.ts';
import { minorOf } from './amount.ts';
import { usePartyOptions } from './parties.ts';
import { ConfirmAction, StatusFilter, wordsOf } from './status-actions.tsx';
import { SubscriptionSimulator } from './subscription-simulator.tsx';
import type { PageProps } from './types.ts';

const FREQUENCY_WORDS: Record<string, string> = {
  weekly: 'Weekly',
  monthly: 'Monthly',
  quarterly: 'Quarterly',
  semiannual: 'Every six months',
  annual: 'Yearly',
};
const STATUS_WORDS: Record<string, string> = {
  pending_authorisation: 'Awaiting the payer’s authorisation',
  active: 'Active',
  refused: 'Refused by the payer',
  cancelled: 'Cancelled',
  expired: 'Expired',
  completed: 'Completed',
};
const CYCLE_WORDS: Record<string, string> = {
  scheduled: 'Scheduled',
  retrying: 'Retrying',
  paid: 'Paid',
  failed: 'Failed',
  cancelled: 'Cancelled',
  skipped: 'Skipped',
};
const words = wordsOf;
const OPEN = ['pending_authorisation', 'active'];

/** Pix Automático subscriptions: the list, one subscription with its cycles, the create form and cancel. */
export function Subscriptions({ route, env, acting }: PageProps) {
  const id = route.split('/')[1];
  return (
    <>
      {acting && (
        <p className="banner acting" role="note">
          {t('Subscriptions are the workspace’s own: acting on a sub-account does not apply to them.')}
        </p>
      )}
      {id ? <SubscriptionDetail id={id} sandbox={env === 'sandbox'} /> : <SubscriptionList />}
    </>
  );
}

function SubscriptionList() {
  const filters = useForm({ status: '' });
  const list = usePaged<Subscription>(`/subscriptions${query(filters.values)}`);
  return (
    <Page
      title={t('Subscriptions')}
      intro={t(
        'Pix Automático: the payer authorises once at their bank, then each cycle is charged on its due date.',
      )}
    >
      <StatusFilter form={filters} table={STATUS_WORDS} />
      <ListTable
        paged={list}
        empty={t('No subscriptions yet. Create one below.')}
        rowData={(sub) => ({ 'data-subscription-id': sub.id })}
        columns={[
          {
            label: t('Payer'),
            cell: (sub) => <AppLink to={`subscriptions/${sub.id}`}>{sub.debtor.name}</AppLink>,
          },
          {
            label: t('Status'),
            cell: (sub) => <Status value={sub.status} label={words(STATUS_WORDS, sub.status)} />,
          },
          { label: t('Amount'), num: true, cell: (sub) => <CycleAmount sub={sub} /> },
          { label: t('Frequency'), cell: (sub) => words(FREQUENCY_WORDS, sub.frequency) },
          { label: t('Next due date'), cell: (sub) => <Day day={sub.next_due_date} /> },
          { label: t('Cycles paid'), num: true, cell: (sub) => String(sub.cycles_paid) },
        ]}
      />
      <CreateSubscription onCreated={list.reload} />
    </Page>
  );
}

const CycleAmount = ({ sub }: { sub: Subscription }) =>
  sub.amount_minor !== null ? (
    <Money minor={sub.amount_minor} currency="BRL" />
  ) : (
    <>
      {t('at least')} <Money minor={sub.minimum_minor ?? '0'} currency="BRL" />
    </>
  );

function CreateSubscription({ onCreated }: { onCreated: () => void }) {
  const parties = usePartyOptions();
  const form = useForm({
    debtor_name: '',
    debtor_document: '',
    amount_minor: '',
    frequency: 'monthly',
    start_date: '',
    end_date: '',
    retry_policy: 'three_in_seven_days',
    party_id: '',
    description: '',
  });
  return (
    <FormShell
      form={form}
      title={t('Create a subscription')}
      submitLabel={t('Create subscription')}
      onSubmit={() =>
        form.submit(async (values) => {
          if (!values.start_date) throw new LocalError('start_date', t('Choose the first due date.'));
          const body = {
            debtor: { name: values.debtor_name, document: values.debtor_document },
            amount_minor: minorOf(values.amount_minor, 'BRL'),
            frequency: values.frequency,
            start_date: values.start_date,
            retry_policy: values.retry_policy,
            ...(values.end_date ? { end_date: values.end_date } : {}),
            ...(values.party_id ? { party_id: values.party_id } : {}),
            ...(values.description ? { description: values.description } : {}),
          };
          await api('POST', '/subscriptions', body, { idempotent: true });
          form.reset();
          onCreated();
          return t('Subscription created: the payer now authorises it at their bank.');
        })
      }
    >
      <Field form={form} name="debtor_name" label={t('Payer name')} required autoComplete="off" />
      <Field form={form} name="debtor_document" label={t('Payer CPF or CNPJ')} required inputMode="numeric" />
      <Field
        form={form}
        name="amount_minor"
        label={t('Amount of each cycle (R$)')}
        required
        inputMode="decimal"
      />
      <Field
        form={form}
        name="frequency"
        label={t('Frequency')}
        options={Object.keys(FREQUENCY_WORDS).map(
          (code) => [code, words(FREQUENCY_WORDS, code)] as [string, string],
        )}
      />
      <Field
        form={form}
        name="start_date"
        label={t('First due date')}
        type="date"
        required
        hint={t('At least 2 days from today.')}
      />
      <Field form={form} name="end_date" label={t('Last due date (optional)')} type="date" />
      <Field
        form={form}
        name="retry_policy"
        label={t('When a payment fails')}
        options={[
          ['three_in_seven_days', t('Retry up to 3 times in 7 days')],
          ['none', t('Do not retry')],
        ]}
      />
      <Field form={form} name="party_id" label={t('Credited to')} options={parties} />
      <Field
        form={form}
        name="description"
        label={t('Description')}
        hint={t('What the payer sees the payments are for.')}
      />
    </FormShell>
  );
}

function SubscriptionFacts({ sub }: { sub: Subscription }) {
  return (
    <dl className="facts">
      <dt>{t('Status')}</dt>
      <dd data-testid="subscription-status">
        <Status value={sub.status} label={words(STATUS_WORDS, sub.status)} />
      </dd>
      <dt>{t('Payer')}</dt>
      <dd>
        {sub.debtor.name} · {sub.debtor.document_type.toUpperCase()} <code>{sub.debtor.document}</code>
      </dd>
      <dt>{t('Amount')}</dt>
      <dd>
        <CycleAmount sub={sub} />
      </dd>
      <dt>{t('Frequency')}</dt>
      <dd>{words(FREQUENCY_WORDS, sub.frequency)}</dd>
      <dt>{t('First due date')}</dt>
      <dd>
        <Day day={sub.start_date} />
      </dd>
      <dt>{t('Next due date')}</dt>
      <dd>
        <Day day={sub.next_due_date} />
      </dd>
      <dt>{t('Cycles paid')}</dt>
      <dd data-testid="cycles-paid">{sub.cycles_paid}</dd>
      <dt>{t('When a payment fails')}</dt>
      <dd>{sub.retry_policy === 'none' ? t('Do not retry') : t('Retry up to 3 times in 7 days')}</dd>
      {sub.authorised_at && (
        <>
          <dt>{t('Authorised')}</dt>
          <dd>
            <When at={sub.authorised_at} />
          </dd>
        </>
      )}
      {sub.cancelled_by && (
        <>
          <dt>{t('Cancelled by')}</dt>
          <dd>{sub.cancelled_by === 'payer' ? t('the payer') : t('you (the receiver)')}</dd>
        </>
      )}
    </dl>
  );
}

function Cycles({ cycles }: { cycles: SubscriptionCycle[] | null }) {
  if (!cycles) return <p role="status">{t('Loading…')}</p>;
  if (cycles.length === 0)
    return <p className="empty">{t('No cycle yet: each is scheduled 5 days before its due date.')}</p>;
  return (
    <TableScroll label={t('Cycles')}>
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">{t('Due date')}</th>
            <th scope="col" className="num">
              {t('Amount')}
            </th>
            <th scope="col">{t('Status')}</th>
            <th scope="col" className="num">
              {t('Attempts')}
            </th>
            <th scope="col">{t('Next attempt')}</th>
          </tr>
        </thead>
        <tbody>
          {cycles.map((cycle) => (
            <tr key={cycle.sequence} data-cycle={cycle.sequence}>
              <td>{cycle.sequence}</td>
              <td>
                {cycle.payment_id ? (
                  <AppLink to={`payments/${cycle.payment_id}`}>
                    <Day day={cycle.due_date} />
                  </AppLink>
                ) : (
                  <Day day={cycle.due_date} />
                )}
              </td>
              <td className="num">
                <Money minor={cycle.amount_minor} currency="BRL" />
              </td>
              <td>
                <Status value={cycle.status} label={words(CYCLE_WORDS, cycle.status)} />
              </td>
              <td className="num">{cycle.attempts}</td>
              <td>{cycle.next_attempt_date ? <Day day={cycle.next_attempt_date} /> : '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

function CancelSubscription({ sub, onDone }: { sub: Subscription; onDone: () => void }) {
  if (!OPEN.includes(sub.status)) return null;
  return (
    <ConfirmAction
      title={t('Cancel this subscription')}
      hint={t('The cycles not yet paid are cancelled too.')}
      submitLabel={t('Cancel subscription')}
      question={t('Cancel this subscription? No cycle is charged after it.')}
      run={async () => {
        await api('POST', `/subscriptions/${sub.id}/cancel`);
        onDone();
        return t('Subscription cancelled.');
      }}
    />
  );
}

function SubscriptionDetail({ id, sandbox }: { id: string; sandbox: boolean }) {
  const loaded = useLoad<Subscription>(`/subscriptions/${id}`);
  const cycles = useLoad<SubscriptionCycle[]>(`/subscriptions/${id}/cycles`);
  const sub = loaded.data;
  const reload = () => {
    loaded.reload();
    cycles.reload();
  };
  return (
    <Page title={t('Subscription')}>
      <p>
        <AppLink to={'subscriptions'}>← {t('All subscriptions')}</AppLink>
      </p>
      {loaded.error && <p className="error">{loaded.error.message}</p>}
      {sub && (
        <>
          <SubscriptionFacts sub={sub} />
          <h2>{t('Cycles')}</h2>
          <Cycles cycles={cycles.data} />
          {sandbox && <SubscriptionSimulator sub={sub} onChange={reload} />}
          <CancelSubscription sub={sub} onDone={reload} />
        </>
      )}
    </Page>
  );
}
