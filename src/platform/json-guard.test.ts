import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileJson, MAX_JSON_DEPTH } from './json-guard.ts';

const nested = (levels: number): unknown => {
  let value: unknown = { leaf: 1 };
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
};

describe('hostileJson', () => {
  it('names the field of a lone surrogate, in arrays and objects, and the object of a bad key', () => {
    expect(hostileJson({ metadata: { list: ['ok', 'x\udc00'] } })?.field).toBe('body.metadata.list.1');
    expect(hostileJson({ payer: { name: '\ud800' } })?.field).toBe('body.payer.name');
    expect(hostileJson({ metadata: { '\udc00': 1 } })?.field).toBe('body.metadata');
    expect(hostileJson('\udc00')?.field).toBe('body');
  });

  it('names the field of a NUL the same way, in values and keys', () => {
    expect(hostileJson({ description: 'a\u0000b' })).toEqual({
      field: 'body.description',
      issue: 'must not contain NUL (U+0000)',
    });
    expect(hostileJson({ metadata: { list: ['\u0000'] } })?.field).toBe('body.metadata.list.0');
    expect(hostileJson({ metadata: { 'a\u0000': 1 } })?.field).toBe('body.metadata');
  });

  it('admits MAX_JSON_DEPTH levels below the top and refuses one more', () => {
    expect(hostileJson(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(hostileJson(nested(MAX_JSON_DEPTH + 1))?.issue).toMatch(/nest deeper/);
    expect(hostileJson(nested(5000))?.issue).toMatch(/nest deeper/);
  });

  it('names one of the bad fields when there are several', () => {
    expect(hostileJson({ a: { b: '\udc00' }, c: '\udc00' })?.field).toMatch(/^body\.(a\.b|c)$/);
  });

  it('passes any well-formed JSON value within the depth', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 10 }), (value) => {
        expect(hostileJson(JSON.parse(JSON.stringify(value)))).toBeUndefined();
      }),
    );
  });

  it('walks a megabyte of numbers without building a frame per number', () => {
    expect(hostileJson(new Array(500_000).fill(0))).toBeUndefined();
  });
});
