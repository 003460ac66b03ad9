import { Field, FormShell, type FormState, useForm } from '../components.tsx';
import { t } from '../i18n.ts';

/** A status code in words from a page's own table (English keys of t()); an unknown code as itself. */
export const wordsOf = (table: Record<string, string>, code: string): string => t(table[code] ?? code);

/** A list's status filter: "All", then each status of `table` in words. */
export function StatusFilter({
  form,
  table,
}: {
  form: FormState<{ status: string }>;
  table: Record<string, string>;
}) {
  return (
    <form className="filters" aria-label={t('Filters')} onSubmit={(event) => event.preventDefault()}>
      <Field
        form={form}
        name="status"
        label={t('Status')}
        options={[
          ['', t('All')],
          ...Object.keys(table).map((code): [string, string] => [code, wordsOf(table, code)]),
        ]}
      />
    </form>
  );
}

/**
 * An action that cannot be undone (cancel a charge, a subscription): a box with what it does, a
 * button, and the browser's confirmation before the call; the refusal shows as every form's does.
 */
export function ConfirmAction({
  title,
  hint,
  submitLabel,
  question,
  run,
}: {
  title: string;
  hint: string;
  submitLabel: string;
  question: string;
  /** The call; it answers the sentence to show once it is done. */
  run: () => Promise<string>;
}) {
  const form = useForm({});
  return (
    <FormShell
      form={form}
      title={title}
      submitLabel={submitLabel}
      onSubmit={() => {
        if (confirm(question)) void form.submit(run);
      }}
    >
      <p className="hint">{hint}</p>
    </FormShell>
  );
}
