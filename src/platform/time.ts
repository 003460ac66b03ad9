import { invalidRequest } from './errors.ts';

/**
 * A date-time query bound as a Date. The schema's date-time format admits instants PostgreSQL
 * cannot hold (year 0000, an offset that pushes past 9999); they are the caller's mistake: 400.
 */
export function parseTimestampBound(value: string | undefined, field: string): Date | null {
  if (value === undefined) return null;
  const date = new Date(value);
  const year = date.getUTCFullYear();
  if (Number.isNaN(date.getTime()) || year < 1 || year > 9999) {
    throw invalidRequest(`${field} must be a date-time between years 0001 and 9999.`, [
      { field: `querystring.${field}`, issue: 'out of range' },
    ]);
  }
  return date;
}
