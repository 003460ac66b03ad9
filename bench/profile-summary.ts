/**
 * Where a V8 CPU profile's samples fell: `npx tsx bench/profile-summary.ts FILE.cpuprofile
 * [--from S] [--to S] [--callers NAME]`. Take one with `BENCH_HTTP_PGLITE=0 node --cpu-prof
 * --cpu-prof-interval 500 --cpu-prof-dir=/tmp/prof --import tsx bench/run.ts --only=http`: the server
 * runs in the bench's process (the larger file; the other is tsx's loader thread), autocannon in its
 * own, unprofiled. --from/--to keep the samples of a time window (seconds from the profile's start,
 * e.g. one scenario). Prints sample shares by package or file and by function, or with --callers the
 * call chains (Node's internal frames left out) that led to the samples inside NAME.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas?: number[];
}

const USAGE = 'usage: profile-summary FILE.cpuprofile [--from S] [--to S] [--callers NAME]';
const [file, ...rest] = process.argv.slice(2);
const flags = new Map<string, string>();
for (let i = 0; i < rest.length; i += 2) {
  const [flag, value] = [rest[i]!, rest[i + 1]];
  if (!['--from', '--to', '--callers'].includes(flag) || value === undefined) throw new Error(USAGE);
  flags.set(flag, value);
}
if (!file) throw new Error(USAGE);
const from = Number(flags.get('--from') ?? 0) * 1e6;
const to = Number(flags.get('--to') ?? Number.POSITIVE_INFINITY) * 1e6;

const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

// Samples are counted, not weighted by the gap before them: a thread that was off its core for a
// while would otherwise put that whole gap on wherever it stood when it got the core back.
const hits = new Map<number, number>();
let clock = 0;
let total = 0;
profile.samples.forEach((id, i) => {
  clock += profile.timeDeltas?.[i] ?? 0;
  if (clock < from || clock > to) return;
  total++;
  hits.set(id, (hits.get(id) ?? 0) + 1);
});

const origin = ({ callFrame: { url, functionName } }: ProfileNode) => {
  if (!url) return `(${functionName || 'anonymous'})`;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return `npm:${pkg[1]}`;
  return url.match(/\/((?:src|bench|scripts)\/.*)$/)?.[1] ?? url;
};
// Line numbers of our .ts files are those of tsx's output, so only the name and file are shown.
const frame = (node: ProfileNode) => {
  const where = origin(node);
  const line =
    node.callFrame.url.endsWith('.ts') || !node.callFrame.url ? '' : `:${node.callFrame.lineNumber + 1}`;
  return `${node.callFrame.functionName || 'anonymous'} ${where}${line}`;
};
const percent = (count: number) => `${((100 * count) / Math.max(total, 1)).toFixed(1).padStart(5)} %`;

function top(title: string, key: (node: ProfileNode) => string | undefined, count = 25) {
  const sums = new Map<string, number>();
  for (const [id, n] of hits) {
    const k = key(nodes.get(id)!);
    if (k !== undefined) sums.set(k, (sums.get(k) ?? 0) + n);
  }
  console.log(`--- ${title}`);
  for (const [k, n] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${percent(n)}  ${k}`);
}

console.log(`${total} samples in the window`);
const callee = flags.get('--callers');
if (callee) {
  top(
    `call chains into ${callee}`,
    (node) => {
      if (node.callFrame.functionName !== callee) return undefined;
      const chain: string[] = [];
      for (let at = parents.get(node.id); at !== undefined && chain.length < 6; at = parents.get(at)) {
        const caller = nodes.get(at)!;
        if (!caller.callFrame.url.startsWith('node:')) chain.push(frame(caller));
      }
      return chain.join(' < ');
    },
    8,
  );
} else {
  top('samples by package or file', origin);
  top('samples by function', frame);
}
