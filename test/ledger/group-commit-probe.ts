/**
 * The probe table the group-commit tests write: a row per request, with the top transaction that
 * wrote it, and a check only COMMIT runs (a tag containing 'boom' fails the whole transaction there).
 */
import type { Database, Tx } from '../../src/db/types.ts';

export async function createProbe(db: Database) {
  await db.exec(`
    CREATE TABLE gc_probe (id serial PRIMARY KEY, tag text NOT NULL UNIQUE, xact bigint NOT NULL);
    CREATE FUNCTION gc_probe_check() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.tag LIKE '%boom%' THEN RAISE EXCEPTION 'refused at commit'; END IF;
      RETURN NULL;
    END $$;
    CREATE CONSTRAINT TRIGGER gc_probe_at_commit AFTER INSERT ON gc_probe
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION gc_probe_check();`);
}

/** Writes a probe row; txid_current() is the top transaction's id, also inside a savepoint. */
export const tag = (tx: Tx, value: string) =>
  tx.query('INSERT INTO gc_probe (tag, xact) VALUES ($1, txid_current())', [value]);

/** The probe rows whose tag starts with prefix, in order. */
export const tags = async (db: Database, prefix: string) =>
  (
    await db.query<{ tag: string }>('SELECT tag FROM gc_probe WHERE tag LIKE $1 ORDER BY tag', [`${prefix}%`])
  ).rows.map((row) => row.tag);

/** How many transactions wrote the probe rows whose tag starts with prefix. */
export const transactionsOf = async (db: Database, prefix: string) =>
  (
    await db.query<{ n: number }>('SELECT count(DISTINCT xact)::int AS n FROM gc_probe WHERE tag LIKE $1', [
      `${prefix}%`,
    ])
  ).rows[0]!.n;
