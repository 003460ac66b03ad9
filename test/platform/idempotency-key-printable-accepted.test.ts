/**
 * API.md gives Idempotency-Key as "1–255 printable characters": a key with a space ("order 42") or a
 * non-ASCII letter ("pedido-ação") is a key, not a 400 invalid_request (as it was when the pattern
 * allowed visible ASCII only). The header schema (src/platform/openapi.ts IdempotencyKeyHeader)
 * counts the header as Node hands it over (latin1, one character per UTF-8 byte), so its bound must
 * let a 255-character non-ASCII key through too.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

/** What an HTTP client puts on the wire for a UTF-8 header value, as Node reads it back. */
const wire = (value: string) => Buffer.from(value, 'utf8').toString('latin1');

describe('Idempotency-Key: 1–255 printable characters', () => {
  for (const [name, key] of [
    ['with a space', 'order 42'],
    ['with non-ASCII letters', wire('pedido-ação-42')],
    ['of 255 non-ASCII characters', wire('ç'.repeat(255))],
  ] as const) {
    it(`a key ${name} is accepted and replays`, async () => {
      const ws = await world.workspace();
      const body = { amount_minor: '1000' };
      const first = await ws.api.post('/v1/sandbox/pix/charges', body, { 'idempotency-key': key });
      expect(first.statusCode, first.body).toBe(200);
      const again = await ws.api.post('/v1/sandbox/pix/charges', body, { 'idempotency-key': key });
      expect(again.statusCode).toBe(200);
      expect(again.headers['idempotency-replayed']).toBe('true');
      expect(again.json().data.id).toBe(first.json().data.id);
    });
  }
});
