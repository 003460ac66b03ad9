import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawServerDefault } from 'fastify';
import { type TSchema, Type } from 'typebox';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export const Uuid = Type.String({ format: 'uuid' });
export const Timestamp = Type.String({ format: 'date-time' });
export const Nullable = <T extends TSchema>(schema: T, options: { description?: string } = {}) =>
  Type.Union([schema, Type.Null()], options);
export const EnvironmentName = Type.Union([Type.Literal('sandbox'), Type.Literal('live')], {
  description: 'The environment the record belongs to: sandbox or live.',
});
/** Minor units on the write side (spec: ^[0-9]{1,16}$). */
export const AmountMinor = Type.String({
  pattern: '^[0-9]{1,16}$',
  examples: ['1050'],
  description: 'The amount in minor units, as a string of digits ("1050" is R$ 10.50).',
});
/** Metadata as stored and answered: whatever was accepted when it was written. */
export const Metadata = Type.Record(Type.String(), Type.Unknown(), {
  description: 'Your own key-value pairs, as you wrote them.',
});

/** Stripe's bounds: a caller's own key-value pairs, never a document store copied into every event. */
export const METADATA_LIMITS = { keys: 50, keyLength: 40, valueLength: 500, valueDepth: 3 } as const;

/**
 * Metadata as a request body takes it. Its keys are the caller's, so it is not closed like the body
 * around it; it is bounded instead: keys, key length, and each value's size and depth (so the whole
 * is at most about 27 KB of JSON).
 */
export const MetadataBody = Type.Unsafe<Record<string, unknown>>({
  type: 'object',
  maxProperties: METADATA_LIMITS.keys,
  propertyNames: { minLength: 1, maxLength: METADATA_LIMITS.keyLength },
  additionalProperties: {
    'x-max-json-length': METADATA_LIMITS.valueLength,
    'x-max-depth': METADATA_LIMITS.valueDepth,
  },
  description: `Your own key-value pairs: at most ${METADATA_LIMITS.keys} keys of 1 to ${METADATA_LIMITS.keyLength} characters; a value is a string of at most ${METADATA_LIMITS.valueLength} characters, or a number, boolean, null, array or object of at most ${METADATA_LIMITS.valueLength} characters as JSON, nesting at most ${METADATA_LIMITS.valueDepth} levels.`,
});

/** A name must say something: a string of only spaces is as blank as an empty one. */
export const NOT_BLANK = '\\S';
export const Name = (maxLength: number, options: { description?: string } = {}) =>
  Type.String({ minLength: 1, maxLength, pattern: NOT_BLANK, ...options });

/** Path parameters of every /v1/{env} route. */
export const EnvParams = Type.Object({
  env: Type.Union([Type.Literal('sandbox'), Type.Literal('live'), Type.Literal('test')], {
    description: 'sandbox or live; test is an alias of sandbox',
  }),
});
const RecordId = Type.String({ format: 'uuid', description: 'The id of the record.' });
export const EnvIdParams = Type.Object({ env: EnvParams.properties.env, id: RecordId });

/** Path parameters of a sandbox-only route (a live path answers 404 before validation). */
export const SandboxEnvParams = Type.Object({
  env: Type.Union([Type.Literal('sandbox'), Type.Literal('test')], {
    description: 'sandbox only; test is its alias',
  }),
});
export const SandboxEnvIdParams = Type.Object({ env: SandboxEnvParams.properties.env, id: RecordId });

export const ErrorBody = Type.Object({
  error: Type.String({ description: 'The error code: branch on it, never on the message.' }),
  message: Type.String({ description: 'What went wrong, in a sentence for a person.' }),
  details: Type.Optional(
    Type.Array(
      Type.Object({
        field: Type.String({
          description: 'The dotted path of the field in the request: body.amount_minor.',
        }),
        issue: Type.String({ description: 'What is wrong with it: is required, unknown field, must be …' }),
      }),
      { description: 'One entry per field at fault, on validation failures and refusals about a field.' },
    ),
  ),
});

/**
 * The schema with a description (and examples) of its own, for a property whose shared schema
 * (Uuid, Timestamp, AmountMinor) says nothing of what it is here. The copy keeps typebox's hidden
 * markers (Type.Optional), which a spread would drop.
 */
export function doc<T extends TSchema>(schema: T, description: string, examples?: unknown[]): T {
  const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(schema)) as T & {
    description: string;
    examples?: unknown[];
  };
  copy.description = description;
  if (examples) copy.examples = examples;
  return copy;
}

/**
 * The success envelope of the spec and the error shape, for a route's `response` schema. `example`
 * is the `data` of a typical answer, shown by the document (the route-catalogue test validates it).
 */
export const respond = <T extends TSchema>(data: T, options: { example?: unknown } = {}) => ({
  200: Type.Object({ data }, options.example === undefined ? {} : { examples: [{ data: options.example }] }),
  '4xx': ErrorBody,
  '5xx': ErrorBody,
});

/** Dates leave services as ISO strings, so a replayed (stored) response is byte-identical to the first. */
export const iso = <T extends Date | null>(date: T): T extends Date ? string : string | null =>
  (date ? date.toISOString() : null) as T extends Date ? string : string | null;
