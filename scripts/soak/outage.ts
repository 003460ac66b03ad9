/**
 * The database going away (issue 18, item 5): while the private PostgreSQL is down, every answer is
 * 503 database_unavailable with Retry-After (never a 500), /ready says not ready, and once it is back
 * the service recovers by itself, without a restart.
 */
import { call, violation } from './client.ts';
import type { PrivateCluster } from './postgres.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until /ready answers 200; false after `ms`. */
export async function waitReady(base: string, ms: number): Promise<boolean> {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    if ((await call(base, 'GET', '/ready')).status === 200) return true;
    await sleep(200);
  }
  return false;
}

export async function probeWhileDown(
  base: string,
  cluster: PrivateCluster,
  mode: 'fast' | 'immediate',
): Promise<void> {
  // The API may just be starting again after a kill: the outage is measured on a running one.
  if (!(await waitReady(base, 60_000))) violation('the API was not ready before PostgreSQL was stopped');
  await cluster.halt(mode);
  const seen = new Map<number, number>();
  const until = Date.now() + 2000;
  while (Date.now() < until) {
    const ready = await call(base, 'GET', '/ready');
    seen.set(ready.status, (seen.get(ready.status) ?? 0) + 1);
    if (ready.status === 200) violation('/ready answered 200 while PostgreSQL was down');
    if (ready.status === 503 && ready.body?.error !== 'database_unavailable')
      violation(`/ready while down: 503 ${ready.text}, not database_unavailable`);
    await sleep(50);
  }
  if (!seen.has(503) && !seen.has(0))
    violation(`/ready never said not ready while PostgreSQL was down: ${[...seen.keys()]}`);
  await cluster.resume();
  if (!(await waitReady(base, 60_000)))
    violation('the service did not recover within 60 s of PostgreSQL coming back');
  console.log(
    `soak: PostgreSQL ${mode} stop, /ready answers while down ${JSON.stringify(Object.fromEntries(seen))}, recovered`,
  );
}
