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
export const Metadata = Type.Record(Type.String(), Type.Unknown());

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
