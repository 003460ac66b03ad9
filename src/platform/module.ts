import type { Deps } from './context.ts';
import type { JobKind } from './jobs.ts';
import type { App } from './schema.ts';
import type { BackgroundTask } from './tasks.ts';

/** Registers one route (a file under a module's routes/). */
export type RouteRegistration = (app: App, deps: Deps) => void;

/** An operator's command of `lastro` (e.g. `lastro kyc decide …`), run against a migrated database. */
export interface CliCommand {
  name: string;
  /** One usage line, shown by `lastro` without arguments. */
  usage: string;
  /** The arguments after the command's name, or undefined when they do not make a command. */
  parse(argv: string[]): unknown;
  /** Prints its result; resolves to the process exit code. */
  run(deps: Deps, args: unknown): Promise<number>;
}

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
  commands?: readonly CliCommand[];
}

export const defineModule = (manifest: ModuleManifest): ModuleManifest => manifest;
