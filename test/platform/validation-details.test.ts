/**
 * Validation details say one thing one way: `details[].field` is the field's path under the request
 * part (`body.amount_minor`, `body.payer.name`, `querystring.cursor`) whichever layer refused it;
 * one detail per field; NUL named like any other unstorable character; a blank name refused wherever
 * a name is taken.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace('Details', { settlementKey: true, fund: '100000' });

describe('details[].field', () => {
  it('is body.<field> from the schema and from the services alike', async () => {
    const quote = await ws.api.post('/v1/sandbox/rfq/quote', {
      base_amount_minor: '0',
      base_currency: 'BRL',
      quote_currency: 'USDT',
    });
    expect(quote.json().details).toEqual([{ field: 'body.base_amount_minor', issue: expect.any(String) }]);
    const send = await ws.api.post('/v1/sandbox/crypto/send', {
      amount_minor: '1',
      to_address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
      network: 'polygon',
      currency: 'EUR',
    });
    expect(send.json().details).toEqual([{ field: 'body.currency', issue: expect.any(String) }]);
    const hook = await ws.api.post('/v1/sandbox/webhooks/endpoints', { url: 'ftp://example.com' });
    expect(hook.json().details).toEqual([{ field: 'body.url', issue: expect.any(String) }]);
  });

  it('names a key holding / or ~ as it was sent', async () => {
    const res = await ws.api.post('/v1/sandbox/customers', { display_name: 'Bia', 'a/b~c': 1 });
    expect(res.json().details).toEqual([{ field: 'body.a/b~c', issue: 'unknown field' }]);
  });

  it('side: "bogus" gives one detail, naming the values it may take', async () => {
    const res = await ws.api.post('/v1/sandbox/rfq/quote', {
      base_amount_minor: '10000',
      base_currency: 'BRL',
      quote_currency: 'USDT',
      side: 'bogus',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ field: 'body.side', issue: 'must be one of: buy, sell' }]);
  });
});

describe('NUL in text', () => {
  it('is refused one way, naming the field, in a text column and in metadata alike', async () => {
    for (const [body, field] of [
      [{ amount_minor: '1000', description: 'a\u0000b' }, 'body.description'],
      [{ amount_minor: '1000', metadata: { note: 'a\u0000b' } }, 'body.metadata.note'],
    ] as const) {
      const res = await ws.api.post('/v1/sandbox/pix/charges', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toMatchObject({
        error: 'invalid_request',
        details: [{ field, issue: 'must not contain NUL (U+0000)' }],
      });
    }
  });
});

describe('blank names', () => {
  it('a name of only spaces is refused wherever a name is taken, like a blank payer name', async () => {
    const blank = '  \t ';
    const calls = [
      ['body.display_name', ws.api.post('/v1/sandbox/customers', { display_name: blank })],
      ['body.display_name', ws.session.post('/v1/sandbox/subaccounts', { display_name: blank })],
      ['body.display_name', ws.session.patch('/v1/sandbox/workspace', { display_name: blank })],
      ['body.name', ws.session.post('/v1/sandbox/api-keys', { name: blank })],
      [
        'body.payer.name',
        ws.api.post('/v1/sandbox/pix/charges', { amount_minor: '100', payer: { name: blank, document: '' } }),
      ],
    ] as const;
    for (const [field, call] of calls) {
      const res = await call;
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details).toEqual([{ field, issue: 'must not be blank' }]);
    }
  });
});
