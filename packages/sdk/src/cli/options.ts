import { parseArgs } from 'node:util';
import { Lastro } from '../client.js';

/** The flags every command takes, each with its environment variable (the names the guides use). */
export const CONNECTION_FLAGS = {
  'api-key': { type: 'string' },
  workspace: { type: 'string' },
  url: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

export const CONNECTION_HELP = `  --api-key <key>       API key (default $LASTRO_KEY); a live key reads live events
  --workspace <id>      workspace id (default $LASTRO_WORKSPACE)
  --url <url>           API base URL (default $LASTRO_URL, else http://127.0.0.1:3000)`;

/** A refusal of the command line: printed with the usage, exit status 2. */
export class UsageError extends Error {}

type Flags = Record<string, { type: 'string' | 'boolean'; short?: string; multiple?: boolean }>;

/** What the command line says: each flag's value (a string, or true for a switch), and the words. */
export interface Parsed {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** A flag's text, if given. */
export const text = (value: string | boolean | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;

/** Parses `args` against the connection flags and `flags`; unknown flags are refused. */
export function parse(args: string[], flags: Flags): Parsed {
  try {
    const options = { ...CONNECTION_FLAGS, ...flags };
    return parseArgs({ args, options, allowPositionals: true, strict: true }) as Parsed;
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The client the flags (or the environment) name. */
export function clientOf(values: Parsed['values']): Lastro {
  const apiKey = text(values['api-key']) ?? process.env.LASTRO_KEY ?? '';
  const workspaceId = text(values.workspace) ?? process.env.LASTRO_WORKSPACE ?? '';
  if (!apiKey) throw new UsageError('no API key: pass --api-key or set LASTRO_KEY');
  if (!workspaceId) throw new UsageError('no workspace: pass --workspace or set LASTRO_WORKSPACE');
  const baseUrl = text(values.url) ?? process.env.LASTRO_URL ?? 'http://127.0.0.1:3000';
  return new Lastro({ apiKey, workspaceId, baseUrl });
}
