import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

describe('OpenAPI', () => {
  it('/openapi.json is a valid OpenAPI 3.1 document', async () => {
    const res = await world.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(res.statusCode).toBe(200);
    const document = res.json();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('every route has a schema: params for path parameters, a body for writes, a response', () => {
    const missing: string[] = [];
    for (const route of world.app.routeCatalog) {
      if (route.schema.hide || route.url.startsWith('/docs')) continue;
      const name = `${route.method} ${route.url}`;
      if (!route.schema.response) missing.push(`${name}: response`);
      if (route.url.includes('/:') && !route.schema.params) missing.push(`${name}: params`);
      const takesBody = ['PUT', 'PATCH'].includes(route.method);
      if (takesBody && !route.schema.body) missing.push(`${name}: body`);
    }
    expect(missing).toEqual([]);
  });

  it('every documented route is in the document', async () => {
    const document = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const documented = new Set(
      Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, ops]) =>
        Object.keys(ops).map((method) => `${method.toUpperCase()} ${path}`),
      ),
    );
    for (const route of world.app.routeCatalog) {
      if (route.schema.hide || route.url.startsWith('/docs')) continue;
      const path = route.url.replace(/:([a-z_]+)/g, '{$1}');
      expect(documented, `${route.method} ${path}`).toContain(`${route.method} ${path}`);
    }
  });

  it('/docs serves the docs page', async () => {
    const res = await world.app.inject({ method: 'GET', url: '/docs/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
  });
});
