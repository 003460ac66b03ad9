import { PGlite } from '@electric-sql/pglite';
import type { Database, QueryResult, Row, Tx } from './types.ts';
import { causeOf, committed, toDriverParams, transactionHandle } from './types.ts';

const parsers = { 20: (value: string) => BigInt(value) };

/** Opens an embedded PostgreSQL: file-backed in dataDir, in memory when dataDir is undefined. */
export async function openPglite(dataDir?: string, loadDataDir?: Blob): Promise<Database & { raw: PGlite }> {
  const raw = await PGlite.create({ dataDir, parsers, loadDataDir });
  return wrapPglite(raw);
}

export function wrapPglite(raw: PGlite): Database & { raw: PGlite } {
  const run = async <R>(
    target: Pick<PGlite, 'query'>,
    text: string,
    params?: readonly unknown[],
  ): Promise<QueryResult<R>> => {
    const result = await target.query<R>(text, toDriverParams(params));
    return { rows: result.rows, rowCount: result.affectedRows ?? result.rows.length };
  };
  return {
    kind: 'pglite',
    raw,
    query: <R = Row>(text: string, params?: readonly unknown[]) => run<R>(raw, text, params),
    // PGlite has one connection and serialises transactions itself, so there is nothing to retry.
    async transaction<T>(fn: (tx: Tx) => Promise<T>) {
      let tx: Tx | undefined;
      const result = await raw.transaction(async (inner) => {
        const open: Tx = transactionHandle({
          query: <R = Row>(text: string, params?: readonly unknown[]) => run<R>(inner, text, params),
          exec: async (sql: string) => {
            await inner.exec(sql);
          },
        });
        tx = open;
        const value = await fn(open).catch(async (error: unknown) => {
          throw await causeOf(open, error);
        });
        await open.settle();
        return value;
      });
      if (tx) committed(tx);
      return result;
    },
    async exec(sql: string) {
      await raw.exec(sql);
    },
    close: () => raw.close(),
  };
}
