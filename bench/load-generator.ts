/**
 * The load generator, run as its own process (bench/http-load.ts forks it), so that the figures are
 * the server's and not a share of one event loop with autocannon. It gets the targets over IPC,
 * sends each request to the next target in turn with a fresh Idempotency-Key, and answers with
 * autocannon's result.
 */
import { randomUUID } from 'node:crypto';
// @ts-expect-error autocannon ships no type declarations
import autocannonUntyped from 'autocannon';
import type { LoadJob, LoadResult } from './http-load.ts';

interface Request {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string;
}
const autocannon = autocannonUntyped as (options: {
  url: string;
  connections: number;
  duration: number;
  requests: (Request & { setupRequest: (req: Request) => Request })[];
}) => Promise<LoadResult>;

process.once('message', async (job: LoadJob) => {
  let next = 0;
  const result = await autocannon({
    url: job.url,
    connections: job.connections,
    duration: job.seconds,
    requests: [
      {
        method: 'POST',
        path: job.targets[0]!.path,
        headers: {},
        body: '',
        setupRequest: (req) => {
          const target = job.targets[next++ % job.targets.length]!;
          return {
            ...req,
            path: target.path,
            body: target.body,
            headers: {
              ...target.headers,
              'content-type': 'application/json',
              'idempotency-key': randomUUID(),
            },
          };
        },
      },
    ],
  });
  process.send?.(result, () => process.exit(0));
});
