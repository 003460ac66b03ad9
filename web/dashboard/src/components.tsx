import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react';
import { ApiError, api } from './api.ts';
import { fieldErrors, sentence } from './form-errors.ts';
import { getLocale, t } from './i18n.ts';
import { formatDate, formatDay, formatMoney } from './money.ts';
import { href, onLinkClick } from './router.ts';

export interface FormState<V extends Record<string, string>> {
  values: V;
  set: (name: keyof V & string, value: string) => void;
  fieldError: (name: string) => string | undefined;
  general: string | null;
  busy: boolean;
  done: string | null;
  /** Runs the call; an API error lands next to its field (details or the code's field) or above the form. */
  submit: (run: (values: V) => Promise<unknown>) => Promise<void>;
  fail: (field: string, message: string) => void;
  reset: () => void;
  /** Each field's label, as its Field drew it: error sentences name the field as the person sees it. */
  labels: Record<string, string>;
}

export function useForm<V extends Record<string, string>>(initial: V): FormState<V> {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const fieldNames = Object.keys(initial);
  const labels = useRef<Record<string, string>>({}).current;
  const fail = (field: string, message: string) =>
    setErrors((previous) => ({ ...previous, [field]: message }));
  return {
    labels,
    values,
    set: (name, value) => setValues((previous) => ({ ...previous, [name]: value })),
    fieldError: (name) => errors[name],
    general,
    busy,
    done,
    fail,
    reset: () => setValues(initial),
    async submit(run) {
      setErrors({});
      setGeneral(null);
      setDone(null);
      setBusy(true);
      try {
        const message = await run(values);
        setDone(typeof message === 'string' ? message : null);
      } catch (error) {
        if (error instanceof LocalError) fail(error.field, error.message);
        else if (error instanceof ApiError) {
          const placed = fieldErrors(error, { fieldNames, labels, locale: getLocale() });
          if (Object.keys(placed).length) setErrors(placed);
          else setGeneral(sentence(error.message));
        } else setGeneral(t('Could not reach the server. Check your connection and try again.'));
      } finally {
        setBusy(false);
      }
    },
  };
}

/** A check made in the page before calling the API, shown the same way as the API's own. */
export class LocalError extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

interface FieldProps {
  form: FormState<Record<string, string>>;
  name: string;
  label: string;
  hint?: string;
  type?: string;
  required?: boolean;
  autoComplete?: string;
  inputMode?: 'decimal' | 'numeric' | 'text' | 'email';
  options?: readonly (string | [string, string])[];
  placeholder?: string;
}

/** A labelled input (or select) with its hint and error, tied by aria-describedby. */
export function Field({ form, name, label, hint, type = 'text', options, ...rest }: FieldProps) {
  const id = useId();
  form.labels[name] = label;
  const error = form.fieldError(name);
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  const common = {
    id,
    name,
    value: form.values[name] ?? '',
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy || undefined,
    required: rest.required,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {options ? (
        <select {...common} onChange={(event) => form.set(name, event.target.value)}>
          {options.map((option) => {
            const [value, text] = typeof option === 'string' ? [option, option] : option;
            return (
              <option key={value} value={value}>
                {text}
              </option>
            );
          })}
        </select>
      ) : (
        <input
          {...common}
          type={type}
          autoComplete={rest.autoComplete}
          inputMode={rest.inputMode}
          placeholder={rest.placeholder}
          onChange={(event) => form.set(name, event.target.value)}
        />
      )}
      {hint && (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error && (
        <p className="error" id={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

export function FormShell({
  form,
  onSubmit,
  submitLabel,
  children,
  title,
}: {
  form: FormState<Record<string, string>>;
  onSubmit: () => void;
  submitLabel: string;
  children: ReactNode;
  title?: string;
}) {
  return (
    <form
      className="form"
      aria-label={title}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        onSubmit();
      }}
    >
      {title && <h2>{title}</h2>}
      {form.general && (
        <p className="error general" role="alert">
          {form.general}
        </p>
      )}
      {children}
      <button type="submit" disabled={form.busy}>
        {form.busy ? t('Working…') : submitLabel}
      </button>
      {form.done && (
        <p className="success" role="status">
          {form.done}
        </p>
      )}
    </form>
  );
}

export const Money = ({ minor, currency }: { minor: string; currency: string }) => (
  <span className="money">{formatMoney(minor, currency, getLocale())}</span>
);

export const When = ({ at }: { at: string | null | undefined }) => (
  <time dateTime={at ?? undefined}>{formatDate(at, getLocale())}</time>
);

/** A link to a page of the dashboard: a real href, followed without a reload. */
export const AppLink = ({ to, children }: { to: string; children: ReactNode }) => (
  <a href={href(to)} onClick={(event) => onLinkClick(event, to)}>
    {children}
  </a>
);

/** A calendar day (a due date), never shifted by the reader's time zone. */
export const Day = ({ day }: { day: string | null | undefined }) => (
  <time dateTime={day ?? undefined}>{formatDay(day, getLocale())}</time>
);

/** A status as a badge: the API's code in words, or the page's own `label` for it. */
export const Status = ({ value, label }: { value: string; label?: string }) => (
  <span className={`status status-${value}`}>{label ?? t(value)}</span>
);

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

export function CopyButton({ text, label }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <span className="copy">
      <button
        type="button"
        className="secondary"
        onClick={async () => {
          await navigator.clipboard.writeText(text);
          setCopied(true);
        }}
      >
        {label ?? t('Copy')}
      </button>
      <span role="status">{copied ? t('Copied.') : ''}</span>
    </span>
  );
}

export interface Paged<T> {
  items: T[];
  loading: boolean;
  error: string | null;
  hasMore: boolean;
  more: () => void;
  reload: () => void;
}

/** A list the API pages with limit and cursor (the id of the last item seen, newest first). */
export function usePaged<T extends { id: string }>(path: string, pageSize = 20): Paged<T> {
  const [items, setItems] = useState<T[]>([]);
  const [loading, setLoading] = useState(true);
  const [error, setError] = useState<string | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const generation = useRef(0);
  const load = useCallback(
    async (cursor?: string) => {
      const mine = ++generation.current;
      setLoading(true);
      setError(null);
      const joiner = path.includes('?') ? '&' : '?';
      try {
        const page = await api<T[]>(
          'GET',
          `${path}${joiner}limit=${pageSize}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        );
        if (mine !== generation.current) return;
        setItems((previous) => (cursor ? [...previous, ...page] : page));
        setHasMore(page.length === pageSize);
      } catch (caught) {
        if (mine === generation.current) setError(caught instanceof Error ? caught.message : String(caught));
      } finally {
        if (mine === generation.current) setLoading(false);
      }
    },
    [path, pageSize],
  );
  useEffect(() => {
    void load();
  }, [load]);
  return {
    items,
    loading,
    error,
    hasMore,
    more: () => void load(items.at(-1)?.id),
    reload: () => void load(),
  };
}

export function PagedFooter({ paged }: { paged: Paged<unknown & { id: string }> }) {
  return (
    <div className="pager">
      {paged.error && (
        <p className="error" role="alert">
          {paged.error}
        </p>
      )}
      {paged.loading && <p role="status">{t('Loading…')}</p>}
      {paged.hasMore && !paged.loading && (
        <button type="button" className="secondary" onClick={paged.more}>
          {t('Load more')}
        </button>
      )}
    </div>
  );
}

/** Loads one thing; `reload` fetches it again after a change. */
export function useLoad<T>(path: string | null): {
  data: T | null;
  error: ApiError | null;
  reload: () => void;
} {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const [tick, setTick] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: tick asks for a fresh load
  useEffect(() => {
    if (!path) return;
    let live = true;
    api<T>('GET', path)
      .then((value) => {
        if (!live) return;
        setData(value);
        setError(null);
      })
      .catch((caught) => {
        if (!live) return;
        setData(null);
        setError(caught instanceof ApiError ? caught : new ApiError(0, 'network', String(caught)));
      });
    return () => {
      live = false;
    };
  }, [path, tick]);
  return { data, error, reload: () => setTick((n) => n + 1) };
}

export function Page({ title, children, intro }: { title: string; children: ReactNode; intro?: string }) {
  return (
    <section className="page" aria-labelledby="page-title">
      <h1 id="page-title" tabIndex={-1}>
        {title}
      </h1>
      {intro && <p className="intro">{intro}</p>}
      {children}
    </section>
  );
}

/**
 * A table's frame: on a narrow screen the table scrolls sideways inside it rather than widening the
 * page; focusable, so the scroll works from the keyboard too.
 */
export function TableScroll({ children, label }: { children: ReactNode; label?: string }) {
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus to be scrolled by keyboard
    <section className="table-scroll" tabIndex={0} aria-label={label ?? t('Table')}>
      {children}
    </section>
  );
}

export interface Column<T> {
  /** The header; an empty one is read to screen readers as "Actions". */
  label: string;
  cell: (row: T) => ReactNode;
  num?: boolean;
}

/** A paged list as a table (or, when empty, what to do next), with its "Load more". */
export function ListTable<T extends { id: string }>({
  paged,
  columns,
  empty,
  rowData,
}: {
  paged: Paged<T>;
  columns: Column<T>[];
  empty: ReactNode;
  /** data-* attributes of a row (what tests and styles select on). */
  rowData?: (row: T) => Record<`data-${string}`, string>;
}) {
  return (
    <>
      {paged.items.length === 0 && !paged.loading ? (
        <Empty>{empty}</Empty>
      ) : (
        <TableScroll>
          <table>
            <thead>
              <tr>
                {columns.map((column, index) => (
                  <th
                    scope="col"
                    key={column.label || `actions-${index}`}
                    className={column.num ? 'num' : undefined}
                  >
                    {column.label || <span className="visually-hidden">{t('Actions')}</span>}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {paged.items.map((row) => (
                <tr key={row.id} {...rowData?.(row)}>
                  {columns.map((column, index) => (
                    <td key={column.label || `actions-${index}`} className={column.num ? 'num' : undefined}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
      <PagedFooter paged={paged} />
    </>
  );
}

/** A paged list as plain rows (or, when empty, what to do next), with its "Load more". */
export function ListRows<T extends { id: string }>({
  paged,
  empty,
  row,
}: {
  paged: Paged<T>;
  empty: ReactNode;
  row: (item: T) => ReactNode;
}) {
  return (
    <>
      {paged.items.length === 0 && !paged.loading ? (
        <Empty>{empty}</Empty>
      ) : (
        <ul className="rows">
          {paged.items.map((item) => (
            <li key={item.id}>{row(item)}</li>
          ))}
        </ul>
      )}
      <PagedFooter paged={paged} />
    </>
  );
}

/** A secret the API shows once (a key, a signing secret): a warning, the value and a copy button. */
export function SecretOnce({
  title,
  secret,
  testId,
  children,
}: {
  title: string;
  secret: string;
  testId: string;
  children?: ReactNode;
}) {
  return (
    <div className="secret" role="alert">
      <p>
        <strong>{title}</strong>
      </p>
      <code data-testid={testId}>{secret}</code> <CopyButton text={secret} />
      {children}
    </div>
  );
}
