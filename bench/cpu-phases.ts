/**
 * Sorts `perf script` samples of the server's process into the phases of a request. Each sample of
 * the event loop's thread goes to the phase of its innermost frame that names one (a statement sent
 * by the outbox counts as the driver's, since that is the code that ran), helper threads (V8's
 * garbage collector and compiler) to one phase of their own. Shares of on-CPU samples: perf's
 * cpu-clock event samples only a thread that is on a core.
 */

/** Phase names, in the order a frame is tested against them. */
const PHASES: readonly [string, readonly RegExp[]][] = [
  [
    'socket writes, kernel (statements to PostgreSQL, answers to the client)',
    [/__GI___writev|do_iter_readv_writev|tcp_sendmsg|__GI___libc_write|sock_write/],
  ],
  ['socket reads and epoll, kernel', [/epoll|__libc_read|tcp_recvmsg|sock_read|uv__read|uv__io_poll/]],
  ['JSON.parse and JSON.stringify', [/JsonStringifier|JsonParser|JSON/]],
  ['PostgreSQL driver (pg, pg-protocol)', [/node_modules\/pg|pg-protocol/]],
  ['authentication (key hash, cached lookup)', [/src\/platform\/auth/]],
  [
    'idempotency (claim, response sealed and stored)',
    [/src\/platform\/idempotency|secrets\.ts|crypto\/cipher|Cipher/],
  ],
  ['request validation (ajv)', [/ajv|body-schema|json-guard|unexpected-body/]],
  ['response serialisation (fast-json-stringify)', [/fast-json-stringify/]],
  ['logging and metrics', [/pino|prom-client|http-metrics|logging\.ts|metrics\.ts/]],
  ['events and webhook deliveries (outbox)', [/src\/platform\/outbox/]],
  ['group commit lane and transactions (src/db)', [/src\/db\//]],
  ['ledger', [/src\/ledger\//]],
  ['services and handlers (src/modules)', [/src\/modules\//]],
  ['other platform code (src/platform)', [/src\/platform\//]],
  ['fastify routing, hooks and reply', [/node_modules\/fastify|find-my-way|avvio|@fastify/]],
  ['HTTP parsing and writing (node:http)', [/node:_http|llhttp|HTTPParser|node:http/]],
  ['other crypto (random ids, hashes)', [/node:internal\/crypto|EVP_|sha256/i]],
  ['promises and microtasks', [/RunMicrotasks|PromiseReaction|FulfillPromise|Microtask/]],
  [
    'streams, buffers and events (node internals)',
    [/node:internal\/streams|node:buffer|stream_base|node:events/],
  ],
];
const GARBAGE_COLLECTOR = /Scavenge|Marking|Sweep|GarbageCollect|Heap::|Evacuat|MinorMS|Compactor/;
export const HELPER_THREADS = 'V8 helper threads: garbage collection';
export const COMPILER_THREADS = 'V8 helper threads: optimising compiler (warm-up)';
const COMPILER = /compiler::|Compil|Maglev|Turbofan|TurboFan/;
export const MAIN_THREAD_GC = 'garbage collection on the event loop';
export const UNNAMED = 'other (V8 builtins, allocator, unnamed frames)';

/**
 * Samples per phase of the process `pid` (its main thread's id is its pid; `threads` are all of its
 * thread ids) in `perf script` text; samples of other processes (the load generator) are left out.
 */
export function phasesOf(script: string, pid: number, threads: ReadonlySet<number>): Map<string, number> {
  const counts = new Map<string, number>();
  const add = (phase: string) => counts.set(phase, (counts.get(phase) ?? 0) + 1);
  for (const sample of script.split('\n\n')) {
    const [header, ...frames] = sample.trim().split('\n');
    const tid = Number(header?.trim().split(/\s+/)[1]);
    if (!header || !threads.has(tid)) continue;
    if (tid !== pid) add(frames.some((frame) => COMPILER.test(frame)) ? COMPILER_THREADS : HELPER_THREADS);
    else add(phaseOfStack(frames));
  }
  return counts;
}

function phaseOfStack(frames: readonly string[]): string {
  const leaf = frames.slice(0, 6);
  if (leaf.some((frame) => GARBAGE_COLLECTOR.test(frame)) && !frames[0]?.includes('JS:'))
    return MAIN_THREAD_GC;
  for (const frame of frames) {
    for (const [phase, patterns] of PHASES) if (patterns.some((pattern) => pattern.test(frame))) return phase;
  }
  return UNNAMED;
}
