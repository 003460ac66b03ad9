import type { MaybeOptionalInit } from 'openapi-fetch';
import type { paths } from './schema.js';

export type { components, paths } from './schema.js';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'patch';

/** `sandbox` or `live` (`test` is the API's alias of sandbox). */
export type Environment = 'sandbox' | 'live';

type WithoutEnv<P> = P extends { path: infer Q }
  ? Omit<P, 'path'> & (keyof Omit<Q, 'env'> extends never ? { path?: never } : { path: Omit<Q, 'env'> })
  : P;

/**
 * The API's paths with `{env}` filled by the client (from its key or its `environment` option), so
 * a call names only the parameters of its own route.
 */
export type LastroPaths = {
  [Path in keyof paths]: {
    [Key in keyof paths[Path]]: Key extends 'parameters'
      ? WithoutEnv<paths[Path][Key]>
      : paths[Path][Key] extends { parameters: infer P }
        ? Omit<paths[Path][Key], 'parameters'> & { parameters: WithoutEnv<P> }
        : paths[Path][Key];
  };
};

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
/** A call's options: optional when nothing in them is required. */
export type InitArgs<Init> = RequiredKeys<Init> extends never ? [Init?] : [Init];

export type PathsOf<Method extends HttpMethod> = {
  [Path in keyof LastroPaths]: LastroPaths[Path] extends { [M in Method]: object } ? Path : never;
}[keyof LastroPaths];

export type Operation<Path extends keyof LastroPaths, Method extends HttpMethod> = LastroPaths[Path] extends {
  [M in Method]: infer Op;
}
  ? Op
  : never;

export type CallInit<Path extends keyof LastroPaths, Method extends HttpMethod> = MaybeOptionalInit<
  LastroPaths[Path],
  Method
>;

/** What a call resolves to: the `data` of its 200 answer. */
export type ResultOf<Path extends keyof LastroPaths, Method extends HttpMethod> =
  Operation<Path, Method> extends {
    responses: { 200: { content: { 'application/json': { data: infer Data } } } };
  }
    ? Data
    : unknown;

/** Paths whose GET takes a `cursor`: the lists `Lastro.list` can walk. */
export type ListPath = {
  [Path in PathsOf<'get'>]: Operation<Path, 'get'> extends { parameters: { query?: { cursor?: unknown } } }
    ? Path
    : never;
}[PathsOf<'get'>];

/** One item of a list: an element of `data`, or of `data.items` for the checkout payment list. */
export type ItemOf<Path extends ListPath> =
  ResultOf<Path, 'get'> extends (infer Item)[]
    ? Item
    : ResultOf<Path, 'get'> extends { items: (infer Item)[] }
      ? Item
      : never;

/** A webhook's payload, as GET /v1/{env}/events/{id} shows the event. */
export type WebhookEvent = ResultOf<'/v1/{env}/events/{id}', 'get'>;
export type EventType = WebhookEvent['type'];
