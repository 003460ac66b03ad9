/**
 * Keyset pagination, newest first, for every list. Ids are UUIDv7, so id order is creation order and
 * an id is a cursor; lines that share a timestamp (statement postings) page by (time, id).
 * Each helper appends its parameters to the query's and returns the SQL that ends the query.
 */
import { Type } from 'typebox';

export interface PageRequest {
  limit?: number;
  cursor?: string;
}

export const DEFAULT_PAGE_SIZE = 50;

/** limit/cursor of a list's query string; the bounds differ per list (spec: 1..100 or 1..200). */
export const PageQuery = (max = 100, fallback = DEFAULT_PAGE_SIZE) => ({
  limit: Type.Optional(
    Type.Integer({
      minimum: 1,
      maximum: max,
      default: fallback,
      description: `How many to answer, 1 to ${max}.`,
    }),
  ),
  cursor: Type.Optional(
    Type.String({
      format: 'uuid',
      description: 'The id of the last item of the previous page: the page after it.',
    }),
  ),
});

/** `AND <id before the cursor> ORDER BY id DESC LIMIT n`, for a list ordered by a UUIDv7 column. */
export function pageById(params: unknown[], page: PageRequest, column = 'id'): string {
  params.push(page.cursor ?? null, page.limit ?? DEFAULT_PAGE_SIZE);
  const cursor = `$${params.length - 1}`;
  return `AND (${cursor}::uuid IS NULL OR ${column} < ${cursor}) ORDER BY ${column} DESC LIMIT $${params.length}`;
}

/** The (time, id) of the last line seen, found from the cursor id by the list's own finder. */
export interface TimeCursor {
  at: Date;
  id: string;
}

/**
 * `AND <(time, id) past the cursor> ORDER BY time, id LIMIT n`: newest first by default, oldest first
 * with `order: 'asc'` (a file export reads chronologically).
 */
export function pageByTime(
  params: unknown[],
  after: TimeCursor | undefined,
  limit: number | undefined,
  columns: { time: string; id: string },
  order: 'asc' | 'desc' = 'desc',
): string {
  params.push(after?.at ?? null, after?.id ?? null, limit ?? DEFAULT_PAGE_SIZE);
  const n = params.length;
  const [past, by] = order === 'asc' ? ['>', 'ASC'] : ['<', 'DESC'];
  return `AND ($${n - 2}::timestamptz IS NULL OR (${columns.time}, ${columns.id}) ${past} ($${n - 2}, $${n - 1}::uuid))
      ORDER BY ${columns.time} ${by}, ${columns.id} ${by} LIMIT $${n}`;
}
