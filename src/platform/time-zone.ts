/**
 * Wall-clock time in an IANA time zone, from Intl alone (no time-zone library): the local date and
 * time of an instant, its offset, and the instant a local day starts. Brazil's finance teams close
 * their books by the São Paulo day, not the UTC one, so America/Sao_Paulo is the default.
 */
import { invalidRequest } from './errors.ts';

export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

/**
 * The zone a caller named (the default when none), or 400 invalid_request naming the field. Intl's
 * own check: its list of names (Intl.supportedValuesOf) holds canonical names only, and would refuse
 * Asia/Kolkata, Europe/Kyiv, Etc/UTC or Brazil/East, which every IANA database knows. The name
 * answered is Intl's when it differs only in case, else the caller's own: Node's ICU resolves some
 * current names to their old spellings (Asia/Kolkata to Asia/Calcutta), which a caller would not
 * recognise.
 */
export function timeZoneOf(name: string | undefined, field = 'querystring.timezone'): string {
  if (name === undefined) return DEFAULT_TIME_ZONE;
  let resolved: string | undefined;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    resolved = undefined;
  }
  if (resolved === undefined || name.trim() === '') {
    throw invalidRequest(`${name} is not an IANA time zone name (for example America/Sao_Paulo or UTC).`, [
      { field, issue: 'unknown time zone' },
    ]);
  }
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

export interface LocalDate {
  year: number;
  month: number;
  day: number;
}
interface LocalTime extends LocalDate {
  hour: number;
  minute: number;
  second: number;
}

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let format = formatters.get(zone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      era: 'short',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, format);
  }
  return format;
}

function localTime(at: Date, zone: string): LocalTime {
  const parts: Record<string, string> = {};
  for (const part of formatter(zone).formatToParts(at)) parts[part.type] = part.value;
  const year = Number(parts.year);
  return {
    year: parts.era === 'BC' ? 1 - year : year,
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Milliseconds of a wall-clock time read as UTC; setUTCFullYear, since Date.UTC maps years 0..99 to 19xx. */
function wallMs(t: LocalTime): number {
  const date = new Date(0);
  date.setUTCFullYear(t.year, t.month - 1, t.day);
  date.setUTCHours(t.hour, t.minute, t.second, 0);
  return date.getTime();
}

/** The zone's offset from UTC at an instant, in minutes (−180 for São Paulo). */
export function offsetMinutes(at: Date, zone: string): number {
  const whole = Math.floor(at.getTime() / 1000) * 1000;
  return Math.round((wallMs(localTime(at, zone)) - whole) / 60_000);
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');
const dateText = (t: LocalDate) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;

/** The instant's local date in the zone, YYYY-MM-DD. */
export const localDateOf = (at: Date, zone: string) => dateText(localTime(at, zone));

/** The instant as local ISO 8601 with the zone's offset: 2026-03-01T09:30:00.000-03:00. */
export function localIso(at: Date, zone: string): string {
  const t = localTime(at, zone);
  const offset = offsetMinutes(at, zone);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  const ms = pad(((at.getTime() % 1000) + 1000) % 1000, 3);
  return `${dateText(t)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}.${ms}${sign}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
}

/**
 * The first instant of a local day: the earliest instant whose local time is its midnight. Offsets
 * are taken a day before, at and a day after midnight, so every offset in force near it gives a
 * candidate: where midnight happens twice (Asia/Amman's autumn until 2022) the day starts at the
 * first. Where a clock change skips midnight (Brazil's daylight saving began at 00:00 until 2019),
 * the day starts at the change, the first instant past midnight; a day skipped whole (Pacific/Apia's
 * 30 December 2011) starts where the next one does, so it holds no instant.
 */
export function startOfLocalDay(day: LocalDate, zone: string): Date {
  const wall = wallMs({ ...day, hour: 0, minute: 0, second: 0 });
  const localAt = (ms: number) => wallMs(localTime(new Date(ms), zone));
  const candidates = [-DAY_MS, 0, DAY_MS]
    .map((shift) => wall - offsetMinutes(new Date(wall + shift), zone) * 60_000)
    .sort((a, b) => a - b);
  const exact = candidates.find((ms) => localAt(ms) === wall);
  if (exact !== undefined) return new Date(exact);
  // No instant reads midnight: search the change between a candidate before it and one past it.
  let after = candidates.find((ms) => localAt(ms) > wall) ?? Math.max(...candidates);
  let before = candidates.filter((ms) => ms < after && localAt(ms) < wall).at(-1) ?? after - DAY_MS;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (localAt(middle) >= wall) after = middle;
    else before = middle;
  }
  return new Date(after);
}

const DAY_MS = 86_400_000;

/** The calendar day after `day`. */
export function nextDay(day: LocalDate): LocalDate {
  const date = new Date(0);
  date.setUTCFullYear(day.year, day.month - 1, day.day + 1);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/**
 * A range bound of a query as an instant. A date (YYYY-MM-DD) is that whole local day in the zone:
 * as `from` its first instant, as `to` the first instant of the next day, so `to` names the last day
 * included. A date-time carries its own offset and is taken as it is (`to` exclusive).
 */
export function rangeBound(value: string, zone: string, edge: 'from' | 'to'): Date {
  const at = dayBound(value, zone, edge) ?? new Date(value);
  // The instant's own year, once `to` has moved to the next midnight and offsets are applied: the
  // text's year can be 0001 or 9999 while the instant is in year 0 or 10000, which the database
  // cannot hold.
  const year = at.getUTCFullYear();
  if (Number.isNaN(at.getTime()) || year < 1 || year > 9999) {
    throw invalidRequest(`${edge} must be a date or date-time between years 0001 and 9999.`, [
      { field: `querystring.${edge}`, issue: 'out of range' },
    ]);
  }
  return at;
}

const DAY_TEXT = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Whether a range bound names a whole day (YYYY-MM-DD) rather than an instant. */
export const isDayText = (value: string) => DAY_TEXT.test(value);

function dayBound(value: string, zone: string, edge: 'from' | 'to'): Date | null {
  const match = DAY_TEXT.exec(value);
  if (!match) return null;
  const day = { year: Number(match[1]), month: Number(match[2]), day: Number(match[3]) };
  return startOfLocalDay(edge === 'to' ? nextDay(day) : day, zone);
}
