import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import type { Lastro } from '../client.js';
import { LastroError } from '../errors.js';
import { EVENT_TYPES } from '../generated.js';
import { describe, forward, type ListedEvent } from './forward.js';
import { CONNECTION_HELP, clientOf, parse, text, UsageError } from './options.js';

export const LISTEN_HELP = `lastro listen --forward-to <url> [options]

Forwards the workspace's events to a local URL as they happen, each signed as a webhook delivery
(webhook-id, webhook-timestamp, webhook-signature) with the listener secret printed at start.

  --forward-to <url>    where to POST each event (http://127.0.0.1:4242/webhooks)
  --events <types>      only these event types, comma-separated (default: all)
  --print               show each request's headers and body and the local answer
  --since <id|time>     start after this event id, or at this ISO time (default: now)
  --state-file <path>   keep the last forwarded event id here and resume after it on the next start
  --max-events <n>      stop after forwarding n events
${CONNECTION_HELP}`;

/** How long the server holds each poll open when no event comes (its maximum). */
const WAIT_MS = 25_000;
/** The pause after a failed poll (server restarting, network down), before asking again. */
const RETRY_PAUSE_MS = 2000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The smallest UUIDv7 of a millisecond: event ids are UUIDv7, so it stands for "events from then on". */
const uuidv7Floor = (ms: number) => {
  const hex = ms.toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7000-8000-000000000000`;
};

interface ListenOptions {
  url: string;
  types: Set<string> | null;
  print: boolean;
  since: string | undefined;
  stateFile: string | undefined;
  maxEvents: number;
}

function listenOptions(args: string[]): { client: Lastro; options: ListenOptions } | null {
  const { values } = parse(args, {
    'forward-to': { type: 'string' },
    events: { type: 'string' },
    print: { type: 'boolean' },
    since: { type: 'string' },
    'state-file': { type: 'string' },
    'max-events': { type: 'string' },
  });
  if (values.help) return null;
  const url = text(values['forward-to']);
  if (!url || !/^https?:\/\//.test(url) || !URL.canParse(url))
    throw new UsageError('--forward-to must be an absolute http(s) URL');
  const types =
    text(values.events)
      ?.split(',')
      .map((type) => type.trim()) ?? null;
  const unknown = types?.filter((type) => !(EVENT_TYPES as readonly string[]).includes(type)) ?? [];
  if (unknown.length > 0) throw new UsageError(`unknown event types: ${unknown.join(', ')}`);
  const max = text(values['max-events']);
  const maxEvents = max === undefined ? Number.POSITIVE_INFINITY : Number(max);
  if (max !== undefined && !(Number.isInteger(maxEvents) && maxEvents > 0))
    throw new UsageError('--max-events must be a positive integer');
  const since = text(values.since);
  return {
    client: clientOf(values),
    options: {
      url,
      types: types && new Set(types),
      print: values.print === true,
      since: since === undefined ? undefined : startAfter(since),
      stateFile: text(values['state-file']),
      maxEvents,
    },
  };
}

/** --since as the `after` of the events feed: an event id as it is, a time as the first id of its millisecond. */
function startAfter(since: string): string {
  if (UUID.test(since)) return since.toLowerCase();
  const ms = Date.parse(since);
  if (Number.isNaN(ms)) throw new UsageError('--since must be an event id or an ISO time');
  return uuidv7Floor(ms);
}

/**
 * The event id a state file names; undefined when there is no file yet (a first start). A file that
 * names none stops the listener: starting from now would skip every event since the one it lost.
 */
function savedCursor(stateFile: string | undefined): string | undefined {
  if (!stateFile) return undefined;
  let saved: string;
  try {
    saved = readFileSync(stateFile, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`--state-file ${stateFile} cannot be read: ${(error as Error).message}`);
  }
  if (!UUID.test(saved))
    throw new UsageError(
      `--state-file ${stateFile} holds no event id: pass --since to choose where to start, or remove it`,
    );
  return saved;
}

/** Writes the state file whole or not at all (a new file renamed over it), so a kill never leaves it empty. */
function saveCursor(stateFile: string, after: string): void {
  const fresh = `${stateFile}.${process.pid}.tmp`;
  writeFileSync(fresh, `${after}\n`);
  renameSync(fresh, stateFile);
}

/** `lastro listen`: resolves with the exit status once --max-events are forwarded (else runs until killed). */
export async function listen(args: string[]): Promise<number> {
  const parsed = listenOptions(args);
  if (!parsed) {
    console.log(LISTEN_HELP);
    return 0;
  }
  const { client, options } = parsed;
  const session = await client.get('/v1/{env}/webhooks/listen-session');
  let after = options.since ?? savedCursor(options.stateFile) ?? session.start_after;
  // Saved at once, so a listener stopped before its first event still resumes from where it began.
  const save = () => options.stateFile && saveCursor(options.stateFile, after);
  save();
  console.log(
    `Ready: forwarding ${session.environment} events of workspace ${session.workspace_id} to ${options.url}`,
  );
  console.log(`Signing secret: ${session.secret}`);
  console.log(`Starting after: ${after}`);
  let forwarded = 0;
  while (forwarded < options.maxEvents) {
    const events = await poll(client, after);
    for (const event of events) {
      const wanted = !options.types || options.types.has(event.type);
      const result = wanted ? await forward(options.url, session.secret, event) : undefined;
      after = event.id;
      // Saved after each event and before it is reported: a listener killed at any point resumes after
      // what it sent (or, killed between sending and saving, sends that one again: at least once, as
      // deliveries are), and one killed after the report never sends that event again.
      save();
      if (result !== undefined) {
        console.log(describe(event, result, options.print));
        forwarded++;
      }
      if (forwarded >= options.maxEvents) break;
    }
  }
  console.log(`Stopped after ${forwarded} events; resume with --since ${after}`);
  return 0;
}

/** One long poll of the feed; an unanswered one is reported and answered as no events, after a pause. */
async function poll(client: Lastro, after: string): Promise<ListedEvent[]> {
  try {
    return await client.get('/v1/{env}/events', {
      params: { query: { after, wait_ms: WAIT_MS, limit: 100 } },
    });
  } catch (error) {
    // A refusal (a revoked key, a wrong workspace) stays one however often it is asked again.
    if (error instanceof LastroError && error.status < 500 && error.status !== 429) throw error;
    console.error(`lastro listen: ${(error as Error).message}; trying again`);
    await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    return [];
  }
}
