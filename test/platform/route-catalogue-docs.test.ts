import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { RouteEntry } from '../../src/platform/context.ts';
import { ERROR_STATUS } from '../../src/platform/errors.ts';
import { TAGS } from '../../src/platform/http/docs.ts';
import { commonErrors, routeErrors } from '../../src/platform/route-errors.ts';
import { startWorld } from '../support/world.ts';
import { errorsOf, routeDocGaps } from './route-docs.ts';

/**
 * The route catalogue, documented: every route the document shows has a description, an example
 * request (when it takes a body) and response that validate against their schemas, a description
 * on every request and response property, and its list of error codes (CONTRIBUTING.md,
 * "Documenting a route"). A failure names the route and what it lacks.
 */
const world = await startWorld();
afterAll(() => world.close());

const documented = world.app.routeCatalog.filter((r) => !r.schema.hide && !r.url.startsWith('/docs'));
const nameOf = (route: RouteEntry) => `${route.method} ${route.url}`;

describe('route catalogue: documentation', () => {
  it('every route has a description, examples, described properties and an error list', () => {
    const gaps = documented.flatMap((route) => routeDocGaps(route));
    expect(gaps).toEqual([]);
  });

  it("every route's tag is among the document's tags, which all have descriptions", () => {
    const known = new Set<string>(TAGS.map((tag) => tag.name));
    const unknown = documented.flatMap((route) =>
      ((route.schema as { tags?: string[] }).tags ?? ['(none)'])
        .filter((tag) => !known.has(tag))
        .map((tag) => `${nameOf(route)}: tag ${tag} is not in TAGS (src/platform/http/docs.ts)`),
    );
    expect(unknown).toEqual([]);
  });

  it('the document renders each declared error list as one response per status, with examples', async () => {
    const document = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(document.servers[0].url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(document.tags.map((tag: { name: string }) => tag.name)).toEqual(TAGS.map((tag) => tag.name));
    const declared = documented.filter((route) => errorsOf(route));
    for (const route of declared) {
      const url = route.url.replace(/:([a-z_]+)/g, '{$1}');
      const responses = document.paths[url][route.method.toLowerCase()].responses;
      expect(Object.keys(responses), nameOf(route)).not.toContain('4XX');
      // A status the route documents itself (an HTML page) is shown as the route wrote it.
      const own = Object.keys(route.schema.response as object);
      const codes = (routeErrors(route) ?? []).filter((code) => !own.includes(String(ERROR_STATUS[code])));
      const listed = Object.entries(responses)
        .filter(([status]) => Number(status) >= 400)
        .filter(([status]) => !own.includes(status))
        .flatMap(([, response]) => {
          const media = (response as { content: Record<string, { examples: Record<string, unknown> }> })
            .content['application/json']!;
          return Object.keys(media.examples);
        });
      expect(listed.sort(), nameOf(route)).toEqual([...codes].sort());
    }
  });
});

/**
 * The static side of the error lists: a code a module's code throws by name (new AppError('code'),
 * notFound, forbidden, invalidRequest) is declared by at least one of its routes, or is one every
 * route answers. What the module throws only for other modules' routes or jobs is listed in JOB_ONLY.
 */
const MODULES_DIR = path.resolve(import.meta.dirname, '../../src/modules');
const JOB_ONLY: Record<string, string[]> = {
  // transition() refuses a move its callers (refunds, sandbox helpers, jobs) make, never its own routes.
  payments: ['invalid_state'],
};

function thrownCodes(dir: string): Set<string> {
  const codes = new Set<string>();
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const file = path.join(at, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts')) {
        const text = readFileSync(file, 'utf8');
        for (const match of text.matchAll(/AppError\(\s*'([a-z_]+)'/g)) codes.add(match[1]!);
        if (/\bnotFound\(/.test(text)) codes.add('not_found');
        if (/\bforbidden\(/.test(text)) codes.add('forbidden');
        if (/\binvalidRequest\(/.test(text)) codes.add('invalid_request');
      }
    }
  };
  walk(dir);
  return codes;
}

function routesOfModule(module: string): RouteEntry[] {
  const routesDir = path.join(MODULES_DIR, module, 'routes');
  const urls = new Set<string>();
  for (const file of readdirSync(routesDir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(path.join(routesDir, file), 'utf8');
    for (const match of text.matchAll(/app\.(?:get|post|put|patch|delete)\(\s*'([^']+)'/g))
      urls.add(match[1]!);
  }
  return world.app.routeCatalog.filter((route) => urls.has(route.url));
}

describe('route catalogue: error lists against the code', () => {
  const modules = readdirSync(MODULES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .filter((module) => {
      try {
        return readdirSync(path.join(MODULES_DIR, module, 'routes')).length > 0;
      } catch {
        return false;
      }
    });

  it.each(modules)('%s: each code its code throws is in one of its routes’ lists', (module) => {
    const routes = routesOfModule(module);
    // A route without its list yet is named by the documentation test; the module is checked once whole.
    if (routes.length === 0 || routes.some((route) => !errorsOf(route))) return;
    const declared = new Set(routes.flatMap((route) => [...(errorsOf(route) ?? []), ...commonErrors(route)]));
    const missing = [...thrownCodes(path.join(MODULES_DIR, module))].filter(
      (code) => !declared.has(code as never) && !(JOB_ONLY[module] ?? []).includes(code),
    );
    expect(
      missing.map((code) => `src/modules/${module} throws ${code}, which none of its routes declares`),
    ).toEqual([]);
  });
});
