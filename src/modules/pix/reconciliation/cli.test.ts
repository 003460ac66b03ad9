import { describe, expect, it } from 'vitest';
import { parseReconcileArgs } from './cli.ts';

describe('lastro reconcile arguments', () => {
  it('takes a window of two date-times, --json and an environment', () => {
    expect(
      parseReconcileArgs(['--from', '2026-11-24T03:00:00Z', '--to', '2026-11-25T03:00:00Z', '--json']),
    ).toEqual({
      from: new Date('2026-11-24T03:00:00Z'),
      to: new Date('2026-11-25T03:00:00Z'),
      json: true,
      environment: 'live',
    });
    expect(
      parseReconcileArgs(['--environment', 'sandbox', '--from', '2026-11-24', '--to', '2026-11-25']),
    ).toMatchObject({
      environment: 'sandbox',
      from: new Date('2026-11-24T03:00:00Z'),
      to: new Date('2026-11-25T03:00:00Z'),
    });
  });

  it('reads a date as the São Paulo day and refuses a date-time without its offset', () => {
    expect(parseReconcileArgs(['--from', '2026-11-24T00:00:00', '--to', '2026-11-25T00:00:00Z'])).toBe(
      undefined,
    );
    expect(parseReconcileArgs(['--from', '2026-11-24T00:00:00-03:00', '--to', '2026-11-25'])).toMatchObject({
      from: new Date('2026-11-24T03:00:00Z'),
      to: new Date('2026-11-25T03:00:00Z'),
    });
  });

  it('refuses what is not one (the command exits 2)', () => {
    for (const argv of [
      [],
      ['--from', '2026-11-24T03:00:00Z'],
      ['--from', 'yesterday', '--to', '2026-11-25T03:00:00Z'],
      ['--from', '2026-11-25T03:00:00Z', '--to', '2026-11-24T03:00:00Z'],
      ['--from', '2026-11-24', '--to', '2026-11-25', '--environment', 'test'],
      ['--from', '2026-11-24', '--to', '2026-11-25', '--verbose'],
    ])
      expect(parseReconcileArgs(argv), argv.join(' ')).toBeUndefined();
  });
});
