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
      parseReconcileArgs(['--environment', 'sandbox', '--from', '2026-11-24', '--to', '2026-11-25'])
        ?.environment,
    ).toBe('sandbox');
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
