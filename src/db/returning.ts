/**
 * `statement RETURNING columns` for columns that call a function that is not IMMUTABLE (to_char of a
 * date): Citus refuses those in a distributed table's RETURNING, but takes them in a SELECT over the
 * statement's rows, which it still routes to the one shard the statement touches.
 */
export function returningColumns(statement: string, columns: string): string {
  return `WITH changed AS (${statement} RETURNING *) SELECT ${columns} FROM changed`;
}
