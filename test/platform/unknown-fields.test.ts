/**
 * The route catalogue's unknown-field suite: every route whose body is a JSON object, present and
 * future, refuses a field its schema does not list, with a detail naming it; and the OpenAPI
 * document, which the SDK is generated from, says so for every object in every request body.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/platform/context.ts';
import { sampleOf } from '../support/samples.ts';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace('Unknown fields');

const UNKNOWN_ID = '01890000-0000-7000-8000-000000000000';
type Schema = Record<string, unknown> & { type?: string; properties?: Record<string, Schema> };

const objectBodies = world.app.routeCatalog.filter(
  (route) => (route.schema.body as Schema | undefined)?.type === 'object',
);

function credentialOf(route: RouteEntry): Record<string, string> {
  const auth = route.config.auth;
  if (auth === 'none') return {};
  if (auth === 'user') return { authorization: `Bearer ${ws.owner.sessionToken}` };
  const token = auth === 'session' ? ws.owner.sessionToken : ws.apiKey;
  return { authorization: `Bearer ${token}`, 'x-workspace-id': ws.owner.workspaceId };
}

describe('unknown body fields, route by route', () => {
  it('finds the routes (the catalogue is the list, not a hand-kept one)', () => {
    const names = objectBodies.map((route) => `${route.method} ${route.url}`);
    expect(names.length).toBeGreaterThan(25);
    expect(names).toContain('POST /v1/:env/payments/:id/refund');
    expect(names).toContain('PATCH /v1/:env/payment-links/:id');
  });

  it.each(objectBodies.map((route) => [`${route.method} ${route.url}`, route] as const))(
    '%s refuses an unknown field and names it',
    async (_name, route) => {
      const body = { ...(sampleOf(route.schema.body as never) as object), zz_not_a_field: 1, zz_another: 2 };
      const res = await world.app.inject({
        method: route.method as 'POST',
        url: route.url.replace(':env', 'sandbox').replace(/:[a-z_]+/g, UNKNOWN_ID),
        headers: { ...credentialOf(route), 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().error).toBe('invalid_request');
      expect(res.json().details).toEqual(
        expect.arrayContaining([
          { field: 'body.zz_not_a_field', issue: 'unknown field' },
          { field: 'body.zz_another', issue: 'unknown field' },
        ]),
      );
    },
  );
});

const bodiless = world.app.routeCatalog.filter(
  (route) => ['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method) && !route.schema.body,
);

describe('routes that take no body', () => {
  it('finds them (the pay helper among them)', () => {
    expect(bodiless.map((route) => `${route.method} ${route.url}`)).toContain(
      'POST /v1/:env/simulate/payments/:id/pay',
    );
  });

  it.each(bodiless.map((route) => [`${route.method} ${route.url}`, route] as const))(
    '%s refuses a body with fields, naming them, and takes {}',
    async (_name, route) => {
      const send = (payload: string) =>
        world.app.inject({
          method: route.method as 'POST',
          url: route.url.replace(':env', 'sandbox').replace(/:[a-z_]+/g, UNKNOWN_ID),
          headers: { ...credentialOf(route), 'content-type': 'application/json' },
          payload,
        });
      const res = await send('{"amount_minor":"1"}');
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details).toEqual([{ field: 'body.amount_minor', issue: 'unknown field' }]);
      // Logging out would end the session the other cases use.
      if (route.url === '/v1/auth/logout') return;
      const empty = await send('{}');
      expect(empty.statusCode === 400 && empty.json().message === 'This route takes no body.').toBe(false);
    },
  );
});

/** Paths of object schemas in a request body that take properties they do not list. */
function openObjects(schema: unknown, path: string, out: string[]): string[] {
  if (typeof schema !== 'object' || schema === null) return out;
  const s = schema as Schema;
  const isObject = s.type === 'object' || s.properties !== undefined;
  // metadata: the caller's keys, bounded by their own schema (additionalProperties is a bound).
  if (isObject && s.additionalProperties !== false && typeof s.additionalProperties !== 'object')
    out.push(path);
  for (const [key, child] of Object.entries(s.properties ?? {})) openObjects(child, `${path}.${key}`, out);
  if (s.items) openObjects(s.items, `${path}[]`, out);
  for (const branch of [...((s.anyOf as unknown[]) ?? []), ...((s.oneOf as unknown[]) ?? [])])
    openObjects(branch, path, out);
  return out;
}

describe('the OpenAPI document', () => {
  it('shows every request body object closed (additionalProperties: false), metadata bounded', async () => {
    const document = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const open: string[] = [];
    let bodies = 0;
    for (const [path, operations] of Object.entries(document.paths as Record<string, object>)) {
      for (const [method, operation] of Object.entries(operations as Record<string, Schema>)) {
        const content = (operation.requestBody as { content?: Record<string, { schema?: Schema }> })?.content;
        const schema = content?.['application/json']?.schema;
        if (schema?.type !== 'object') continue;
        bodies++;
        openObjects(schema, `${method.toUpperCase()} ${path} body`, open);
      }
    }
    expect(bodies).toBeGreaterThan(25);
    expect(open).toEqual([]);
    const charge =
      document.paths['/v1/{env}/pix/charges'].post.requestBody.content['application/json'].schema;
    expect(charge.properties.metadata).toMatchObject({ maxProperties: 50, propertyNames: { maxLength: 40 } });
  });
});
