export type Row = Record<string, unknown>;

export interface QueryResult<R> {
  rows: R[];
  rowCount: number;
}

/** Anything that runs SQL: the database itself or an open transaction. */
export interface Queryable {
  query<R = Row>(text: string, params?: readonly unknown[]): Promise<QueryResult<R>>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** An open transaction. Services receive it explicitly; only the Database hands them out. */
export interface Tx extends Queryable {
  readonly inTransaction: true;
}

export interface TransactionOptions {
  /** Re-run the function on deadlock or serialization failure (the function must only touch the database). */
  retries?: number;
  /** PostgreSQL: how long a statement may wait for a row lock before failing with 55P03. */
  lockTimeoutMs?: number;
}

export interface Database extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  transaction<T>(fn: (tx: Tx) => Promise<T>, options?: TransactionOptions): Promise<T>;
  close(): Promise<void>;
}

const RETRYABLE = new Set(['40001', '40P01']);

export function isRetryable(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && RETRYABLE.has((error as { code?: string }).code ?? '')
  );
}

/** bigint parameters travel as their decimal text; both drivers then cast them to BIGINT. */
export function toDriverParams(params: readonly unknown[] | undefined): unknown[] | undefined {
  if (!params) return undefined;
  return params.map((value) => {
    if (typeof value === 'bigint') return value.toString();
    if (Array.isArray(value)) return value.map((item) => (typeof item === 'bigint' ? item.toString() : item));
    return value;
  });
}
