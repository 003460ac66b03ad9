import { describe, expect, it } from 'vitest';
import { localIso, offsetMinutes, rangeBound, startOfLocalDay, timeZoneOf } from './time-zone.ts';

describe('time zones', () => {
  it('São Paulo is UTC−3 without daylight saving since 2019', () => {
    expect(offsetMinutes(new Date('2026-01-15T12:00:00Z'), 'America/Sao_Paulo')).toBe(-180);
    expect(startOfLocalDay({ year: 2026, month: 3, day: 1 }, 'America/Sao_Paulo').toISOString()).toBe(
      '2026-03-01T03:00:00.000Z',
    );
  });

  it('a day whose midnight a clock change skipped starts at the change', () => {
    // 4 Nov 2018: São Paulo went from 00:00 −03 straight to 01:00 −02.
    expect(startOfLocalDay({ year: 2018, month: 11, day: 4 }, 'America/Sao_Paulo').toISOString()).toBe(
      '2018-11-04T03:00:00.000Z',
    );
    expect(rangeBound('2018-11-03', 'America/Sao_Paulo', 'to').toISOString()).toBe(
      '2018-11-04T03:00:00.000Z',
    );
    expect(localIso(new Date('2018-11-04T03:00:00Z'), 'America/Sao_Paulo')).toBe(
      '2018-11-04T01:00:00.000-02:00',
    );
  });

  it('a day whose midnight happens twice starts at the first', () => {
    // 17 Feb 2019: at 00:00 −02 the clocks went back to 23:00 −03 of the 16th, so the 16th's last hour
    // was lived twice and the 17th began at 00:00 −03.
    expect(startOfLocalDay({ year: 2019, month: 2, day: 17 }, 'America/Sao_Paulo').toISOString()).toBe(
      '2019-02-17T03:00:00.000Z',
    );
    expect(startOfLocalDay({ year: 2019, month: 2, day: 16 }, 'America/Sao_Paulo').toISOString()).toBe(
      '2019-02-16T02:00:00.000Z',
    );
  });

  it('a day whose midnight happens twice starts at the first, a day later than the change too', () => {
    // 29 Oct 2021: at 01:00 +03 Amman's clocks went back to 00:00 +02, so midnight came twice.
    expect(startOfLocalDay({ year: 2021, month: 10, day: 29 }, 'Asia/Amman').toISOString()).toBe(
      '2021-10-28T21:00:00.000Z',
    );
    expect(startOfLocalDay({ year: 2021, month: 10, day: 30 }, 'Asia/Amman').toISOString()).toBe(
      '2021-10-29T22:00:00.000Z',
    );
  });

  it('a day a zone skipped whole starts where the next one does, so it holds no instant', () => {
    // Samoa went from 29 Dec 2011 23:59:59 −10 straight to 31 Dec 00:00 +14.
    const day = (d: number) =>
      startOfLocalDay({ year: 2011, month: 12, day: d }, 'Pacific/Apia').toISOString();
    expect([day(29), day(30), day(31)]).toEqual([
      '2011-12-29T10:00:00.000Z',
      '2011-12-30T10:00:00.000Z',
      '2011-12-30T10:00:00.000Z',
    ]);
  });

  it('refuses a bound whose instant, not its text, is outside years 0001 to 9999', () => {
    expect(() => rangeBound('0001-01-01T00:00:00+01:00', 'UTC', 'from')).toThrow(/between years/);
    expect(() => rangeBound('9999-12-31', 'America/Sao_Paulo', 'to')).toThrow(/between years/);
    expect(() => rangeBound('9999-12-31T23:59:59-03:00', 'UTC', 'to')).toThrow(/between years/);
    expect(rangeBound('9999-12-30', 'America/Sao_Paulo', 'to').toISOString()).toBe(
      '9999-12-31T03:00:00.000Z',
    );
    expect(rangeBound('0001-01-01T00:00:00Z', 'UTC', 'from').toISOString()).toBe('0001-01-01T00:00:00.000Z');
  });

  it('offsets of half and quarter hours, and days across the year end', () => {
    expect(localIso(new Date('2026-06-01T00:00:00.042Z'), 'Asia/Kathmandu')).toBe(
      '2026-06-01T05:45:00.042+05:45',
    );
    expect(rangeBound('2026-12-31', 'UTC', 'to').toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('names only zones Intl knows, UTC included', () => {
    expect(timeZoneOf(undefined)).toBe('America/Sao_Paulo');
    expect(timeZoneOf('UTC')).toBe('UTC');
    expect(() => timeZoneOf('Mars/Olympus')).toThrow();
    expect(() => timeZoneOf('')).toThrow();
    expect(() => timeZoneOf('+03:00')).toThrow();
  });

  it('takes every IANA name, not only canonical ones, and answers it as the caller wrote it', () => {
    for (const zone of [
      'Asia/Kolkata',
      'Europe/Kyiv',
      'America/Argentina/Buenos_Aires',
      'Etc/UTC',
      'GMT',
      'Brazil/East',
    ]) {
      expect(timeZoneOf(zone)).toBe(zone);
    }
    expect(timeZoneOf('america/sao_paulo')).toBe('America/Sao_Paulo');
  });
});
