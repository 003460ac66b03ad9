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
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
export const EnvironmentName = Type.Union([Type.Literal('sandbox'), Type.Literal('live')]);
/** Minor units on the write side (spec: ^[0-9]{1,16}$). */
export const AmountMinor = Type.String({ pattern: '^[0-9]{1,16}$', examples: ['1050'] });
/** Metadata as stored and answered: whatever was accepted when it was written. */
export const Metadata = Type.Record(Type.String(), Type.Unknown());

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
export const EnvIdParams = Type.Object({ env: EnvParams.properties.env, id: Uuid });

/** Path parameters of a sandbox-only route (a live path answers 404 before validation). */
export const SandboxEnvParams = Type.Object({
  env: Type.Union([Type.Literal('sandbox'), Type.Literal('test')], {
    description: 'sandbox only; test is its alias',
  }),
});
export const SandboxEnvIdParams = Type.Object({ env: SandboxEnvParams.properties.env, id: Uuid });

export const ErrorBody = Type.Object({
  error: Type.String(),
  message: Type.String(),
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), issue: Type.String() }))),
});

/** The success envelope of the spec and the error shape, for a route's `response` schema. */
export const respond = <T extends TSchema>(data: T) => ({
  200: Type.Object({ data }),
  '4xx': ErrorBody,
  '5xx': ErrorBody,
});

/** Dates leave services as ISO strings, so a replayed (stored) response is byte-identical to the first. */
export const iso = <T extends Date | null>(date: T): T extends Date ? string : string | null =>
  (date ? date.toISOString() : null) as T extends Date ? string : string | null;
