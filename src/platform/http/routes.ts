import type { Deps, RouteEntry } from '../context.ts';
import type { ModuleManifest } from '../module.ts';
import { documentCommonHeaders } from '../openapi.ts';
import type { App } from '../schema.ts';

/** The modules' routes, each documented with the common headers and listed in app.routeCatalog. */
export function routes(app: App, deps: Deps, modules: readonly ModuleManifest[]): void {
  const catalog: RouteEntry[] = [];
  app.decorate('routeCatalog', catalog);
  app.addHook('onRoute', (route) => {
    documentCommonHeaders(route);
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      catalog.push({
        method,
        url: route.url,
        config: route.config ?? {},
        schema: (route.schema ?? {}) as RouteEntry['schema'],
      });
    }
  });
  for (const module of modules) for (const register of module.routes) register(app, deps);
}
