/**
 * Hostile JSON once answered 500 internal_error. A lone UTF-16 surrogate ("\udc00") in
 * `metadata` or `payer` passes the schemas but PostgreSQL refuses it (22P02, unmapped); metadata
 * nested ~2200+ levels overflows the stack in JSON.stringify. Both are the caller's input: 400
 * invalid_request naming the field.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PixWorkspace, pixWorkspace } from '../pix/support.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

let ctx: TestContext;
let ws: PixWorkspace;
beforeAll(async () => {
  ctx = await startTestApp();
  ws = await pixWorkspace(ctx, 'Hostile JSON');
  await ws.setSettlementKey();
  await ws.cashIn('100000');
});
afterAll(() => ctx.close());

/** The raw JSON text, so the escapes reach the server exactly as a hostile client writes them. */
const post = (url: string, json: string) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${ws.apiKey}`,
      'x-workspace-id': ws.owner.workspaceId,
      'content-type': 'application/json',
    },
    payload: json,
  });

const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

describe('lone surrogates', () => {
  it.each([
    [
      '/v1/sandbox/pix/charges',
      '{"amount_minor":"1000","metadata":{"note":"x\\udc00y"}}',
      'body.metadata.note',
    ],
    ['/v1/sandbox/pix/charges', '{"amount_minor":"1000","metadata":{"k\\ud800":"v"}}', 'body.metadata'],
    [
      '/v1/sandbox/pix/charges',
      '{"amount_minor":"1000","payer":{"name":"\\ud83d","document":"52998224725"}}',
      'body.payer.name',
    ],
    ['/v1/sandbox/pix/charges', '{"amount_minor":"1000","description":"ab\\udc00"}', 'body.description'],
    [
      '/v1/sandbox/pix/payouts',
      '{"amount_minor":"1000","pix_key":"a@b.com","metadata":{"list":["ok","\\udfff"]}}',
      'body.metadata.list.1',
    ],
    [
      '/v1/sandbox/simulate/pix/cash-in',
      '{"amount_minor":"1000","payer":{"name":"\\udc00","document":"52998224725"}}',
      'body.payer.name',
    ],
  ])('%s %s → 400 invalid_request naming %s', async (url, json, field) => {
    const res = await post(url, json);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json().error).toBe('invalid_request');
    expect(res.json().details).toEqual([
      { field: expect.stringContaining(field), issue: expect.any(String) },
    ]);
  });

  it('a well-formed surrogate pair (an emoji) is fine', async () => {
    const res = await post(
      '/v1/sandbox/pix/charges',
      '{"amount_minor":"1000","metadata":{"note":"\\ud83d\\ude00"}}',
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.json().data.metadata).toEqual({ note: '😀' });
  });
});

describe('deep nesting', () => {
  it.each([40, 3000, 100_000])('metadata nested %i levels → 400 invalid_request', async (depth) => {
    const res = await post('/v1/sandbox/pix/charges', `{"amount_minor":"1000","metadata":${nested(depth)}}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(400);
    expect(res.json().error).toBe('invalid_request');
    expect(res.json().details[0].field).toMatch(/^body\.metadata/);
  });

  it('nesting within the limit reaches the schema: metadata within its own bound is stored, deeper is 400', async () => {
    const deep = await post('/v1/sandbox/pix/charges', `{"amount_minor":"1000","metadata":${nested(20)}}`);
    expect(deep.statusCode, deep.body.slice(0, 300)).toBe(400);
    expect(deep.json().details).toEqual([
      { field: 'body.metadata.a', issue: expect.stringMatching(/levels deep/) },
    ]);
    const res = await post('/v1/sandbox/pix/charges', `{"amount_minor":"1000","metadata":${nested(4)}}`);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  });
});
