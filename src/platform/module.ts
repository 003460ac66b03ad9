import type { Deps } from './context.ts';
import type { JobKind } from './jobs.ts';
import type { App } from './schema.ts';
import type { BackgroundTask } from './tasks.ts';

/** Registers one route (a file under a module's routes/). */
export type RouteRegistration = (app: App, deps: Deps) => void;

/**
 * What a module brings to the service, declared in its index.ts: the app registers the routes, the
 * worker runs the job kinds and background tasks. Nothing is registered by importing a file.
 */
export interface ModuleManifest {
  name: string;
  routes: readonly RouteRegistration[];
  // biome-ignore lint/suspicious/noExplicitAny: a module's job kinds carry payloads of their own types
  jobs?: readonly JobKind<any>[];
  tasks?: readonly BackgroundTask[];
}

export const defineModule = (manifest: ModuleManifest): ModuleManifest => manifest;
