import { Ajv } from 'ajv';
import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { closeBodySchema, compileBodyValidator, JSON_BOUND_KEYWORDS, unknownFields } from './body-schema.ts';
import { MetadataBody, Nullable } from './schema.ts';

const ajv = new Ajv({ strict: false });
for (const keyword of JSON_BOUND_KEYWORDS) ajv.addKeyword(keyword);
const accepts = (schema: object, body: unknown) => compileBodyValidator(ajv, schema)(body);
const unknownOf = (schema: object, body: unknown) => {
  const validate = compileBodyValidator(ajv, schema);
  validate(body);
  return (validate.errors ?? []).filter((e) => e.keyword === 'unknownField').map((e) => e.instancePath);
};

describe('closeBodySchema', () => {
  it('closes objects at every depth (arrays and nullable objects too), leaving the original alone', () => {
    const schema = Type.Object({
      payer: Type.Object({ name: Type.String() }),
      splits: Type.Array(Type.Object({ share: Type.Integer() })),
      maybe: Type.Optional(Nullable(Type.Object({ a: Type.String() }))),
    });
    const closed: unknown = closeBodySchema(schema);
    expect(closed).toMatchObject({
      additionalProperties: false,
      properties: {
        payer: { additionalProperties: false },
        splits: { items: { additionalProperties: false } },
        maybe: { anyOf: [{ additionalProperties: false }, { type: 'null' }] },
      },
    });
    expect('additionalProperties' in schema).toBe(false);
    expect(closeBodySchema(closed)).toEqual(closed);
  });

  it('leaves records and objects that say what else they take (metadata) as they are', () => {
    const record = Type.Record(Type.String(), Type.Unknown());
    expect(closeBodySchema(record)).toEqual(record);
    expect(closeBodySchema(MetadataBody)).toEqual(MetadataBody);
    expect(accepts(Type.Object({ metadata: MetadataBody }), { metadata: { anything: 1 } })).toBe(true);
  });

  it('closes each branch of a union: an alias variant knows its own fields', () => {
    const schema = Type.Union([
      Type.Object({ wallet_name: Type.String() }),
      Type.Object({ walletName: Type.String() }),
    ]);
    expect(accepts(schema, { wallet_name: 'a' })).toBe(true);
    expect(accepts(schema, { walletName: 'a' })).toBe(true);
    expect(accepts(schema, { wallet_name: 'a', other: 1 })).toBe(false);
    expect(unknownOf(schema, { wallet_name: 'a', other: 1 })).toEqual(['/other']);
  });

  it('closes an intersection over all of its members’ fields, not member by member', () => {
    const schema = Type.Intersect([Type.Object({ a: Type.String() }), Type.Object({ b: Type.String() })]);
    expect(accepts(schema, { a: 'x', b: 'y' })).toBe(true);
    expect(accepts(schema, { a: 'x', b: 'y', c: 'z' })).toBe(false);
    expect(unknownOf(schema, { a: 'x', b: 'y', c: 'z' })).toEqual(['/c']);
  });

  it('an intersection with a union member takes each branch’s fields beside the other members’', () => {
    const schema = Type.Intersect([
      Type.Object({ a: Type.String() }),
      Type.Union([Type.Object({ b: Type.String() }), Type.Object({ c: Type.String() })]),
    ]);
    expect(accepts(schema, { a: 'x', b: 'y' })).toBe(true);
    expect(accepts(schema, { a: 'x', c: 'y' })).toBe(true);
    expect(accepts(schema, { a: 'x', b: 'y', z: 1 })).toBe(false);
    expect(unknownOf(schema, { a: 'x', b: 'y', z: 1 })).toEqual(['/z']);
  });

  it('a union beside an object’s own properties checks that same object: its branches stay open', () => {
    const schema = {
      type: 'object',
      properties: { kind: Type.String(), note: Type.String() },
      anyOf: [{ properties: { kind: { const: 'a' } } }, { properties: { kind: { const: 'b' } } }],
    };
    expect(accepts(schema, { kind: 'a', note: 'x' })).toBe(true);
    expect(accepts(schema, { kind: 'c', note: 'x' })).toBe(false);
    expect(unknownOf(schema, { kind: 'a', z: 1 })).toEqual(['/z']);
  });

  it('leaves what a conditional or a negation asks as it was: then applies beside the object, if and not only ask', () => {
    const conditional = {
      type: 'object',
      properties: { kind: Type.String(), n: Type.Integer() },
      if: { properties: { kind: { const: 'x' } } },
      // biome-ignore lint/suspicious/noThenProperty: a JSON Schema conditional, never awaited
      then: { properties: { n: { minimum: 1 } } },
    };
    expect(accepts(conditional, { kind: 'x', n: 1 })).toBe(true);
    expect(accepts(conditional, { kind: 'x', n: 0 })).toBe(false);
    expect(accepts(conditional, { kind: 'y', n: 0 })).toBe(true);
    const negation = {
      type: 'object',
      properties: { a: Type.String(), b: Type.String() },
      not: { properties: { a: { const: 'x' } }, required: ['a'] },
    };
    expect(accepts(negation, { a: 'x', b: 'y' })).toBe(false);
    expect(accepts(negation, { a: 'w', b: 'y' })).toBe(true);
  });
});

describe('unknownFields', () => {
  const schema = closeBodySchema(
    Type.Object({
      design: Type.Optional(Type.Object({ color: Type.String() })),
      splits: Type.Optional(Type.Array(Type.Object({ share: Type.Integer() }))),
      metadata: Type.Optional(MetadataBody),
    }),
  );

  it('names every unknown field, nested and in arrays, and none inside metadata', () => {
    const body = {
      extra: 1,
      design: { color: '#000000', font: 'x' },
      splits: [{ share: 1 }, { share: 2, label: 'y' }],
      metadata: { mine: { anything: true } },
    };
    expect(unknownFields(schema, body).map((issue) => issue.instancePath)).toEqual([
      '/extra',
      '/design/font',
      '/splits/1/label',
    ]);
  });

  it('stops at 100 names however many a body carries', () => {
    const body = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`f${i}`, i]));
    expect(unknownFields(schema, body)).toHaveLength(100);
  });
});

describe('metadata value bounds', () => {
  const schema = Type.Object({ metadata: MetadataBody });
  it('measures a string by its characters and anything else by its JSON, and bounds depth', () => {
    expect(accepts(schema, { metadata: { s: 'é'.repeat(500) } })).toBe(true);
    expect(accepts(schema, { metadata: { s: 'é'.repeat(501) } })).toBe(false);
    expect(accepts(schema, { metadata: { n: [[[1]]] } })).toBe(true);
    expect(accepts(schema, { metadata: { n: [[[[1]]]] } })).toBe(false);
    expect(accepts(schema, { metadata: { n: Array.from({ length: 250 }, () => 1) } })).toBe(false);
  });

  it('counts characters as maxLength does, not UTF-16 units: an emoji is one character', () => {
    expect(accepts(schema, { metadata: { s: '🙂'.repeat(500) } })).toBe(true);
    expect(accepts(schema, { metadata: { s: '🙂'.repeat(501) } })).toBe(false);
    expect(accepts(schema, { metadata: { n: ['🙂'.repeat(490)] } })).toBe(true);
    expect(accepts(schema, { metadata: { n: ['🙂'.repeat(497)] } })).toBe(false);
  });
});
