/**
 * Where a V8 CPU profile's time went: `npx tsx bench/profile-summary.ts FILE.cpuprofile [--callers NAME]`.
 * Take one with `BENCH_HTTP_PGLITE=0 node --cpu-prof --cpu-prof-dir=/tmp/prof --import tsx bench/run.ts
 * --only=http` (the server runs in the bench's process; autocannon in its own, unprofiled). Prints the
 * self time by package or source file and by function, or the call chains that led to NAME.
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
  timeDeltas: number[];
}

const [file, flag, name] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary FILE.cpuprofile [--callers NAME]');
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

const selfTime = new Map<number, number>();
let total = 0;
profile.samples.forEach((id, i) => {
  const delta = profile.timeDeltas[i] ?? 0;
  total += delta;
  selfTime.set(id, (selfTime.get(id) ?? 0) + delta);
});

const origin = ({ callFrame: { url, functionName } }: ProfileNode) => {
  if (!url) return `(${functionName || 'anonymous'})`;
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return `npm:${pkg[1]}`;
  return url.match(/\/((?:src|bench|scripts)\/.*)$/)?.[1] ?? url;
};
const frame = (node: ProfileNode) =>
  `${node.callFrame.functionName || 'anonymous'} ${origin(node)}:${node.callFrame.lineNumber + 1}`;
const percent = (time: number) => `${((100 * time) / total).toFixed(1).padStart(5)} %`;

function top(title: string, key: (node: ProfileNode) => string | undefined, count = 25) {
  const sums = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const k = key(nodes.get(id)!);
    if (k !== undefined) sums.set(k, (sums.get(k) ?? 0) + time);
  }
  console.log(`--- ${title}`);
  for (const [k, time] of [...sums].sort((a, b) => b[1] - a[1]).slice(0, count))
    console.log(`${percent(time)}  ${k}`);
}

console.log(`${(total / 1e6).toFixed(1)} s sampled`);
if (flag === '--callers' && name) {
  top(
    `call chains into ${name}`,
    (node) => {
      if (node.callFrame.functionName !== name) return undefined;
      const chain: string[] = [];
      for (let at = parents.get(node.id); at !== undefined && chain.length < 8; at = parents.get(at))
        chain.push(frame(nodes.get(at)!));
      return chain.join(' < ');
    },
    8,
  );
} else {
  top('self time by package or file', origin);
  top('self time by function', frame);
}
