/**
 * `from`/`to` on GET /statement are checked only by ajv's date-time format, which accepts
 * values PostgreSQL refuses (year 0000, an offset pushing the instant past year 9999). The query then
 * fails inside PostgreSQL and the caller gets 500 internal_error instead of 400 invalid_request.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace('Dates');

describe('statement date bounds', () => {
  it.each(['0000-01-01T00:00:00Z', '9999-12-31T23:59:59-23:59'])(
    'from=%s → 200 or 400, never 500',
    async (value) => {
      const res = await ws.api.get(`/v1/sandbox/statement?from=${encodeURIComponent(value)}`);
      expect(res.statusCode, res.body).not.toBe(500);
    },
  );
});
