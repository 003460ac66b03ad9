/** `npm run soak -- --fuzz [--requests N]`: the schema-driven fuzzer over HTTP against the soak's server. */
import fc from 'fast-check';
import { call, stats, violation } from './client.ts';
import { type FuzzRequest, judge, requestOf, targetsOf } from './fuzz-core.ts';
import { startReceivers } from './receivers.ts';
import { createTenant } from './world.ts';

async function send(base: string, request: FuzzRequest) {
  stats.calls++;
  try {
    const res = await fetch(`${base}${request.url}`, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      signal: AbortSignal.timeout(30_000),
    });
    return { status: res.status, contentType: res.headers.get('content-type') ?? '', text: await res.text() };
  } catch (error) {
    stats.noAnswer++;
    return { status: 0, contentType: '', text: String((error as Error).cause ?? error) };
  }
}

export async function runFuzz(base: string, requests: number, seed: number, concurrency = 8): Promise<void> {
  const receivers = await startReceivers(Math.random);
  const tenant = await createTenant(base, 0, receivers);
  await receivers.close();
  const key = await call(base, 'POST', '/v1/sandbox/api-keys', tenant.session, {
    name: 'party',
    party_id: tenant.parties[1],
  });
  const creds = {
    workspaceId: tenant.workspaceId,
    apiKey: tenant.api.token!,
    session: tenant.session.token!,
    partyKey: key.body.data.secret,
  };
  const doc = (await call(base, 'GET', '/openapi.json')).body;
  const targets = targetsOf(doc);
  const statuses = new Map<number, number>();
  let sent = 0;
  let round = 0;
  const worker = async () => {
    while (sent < requests) {
      const index = round++ % targets.length;
      const batch = fc.sample(requestOf(targets[index]!, creds), { numRuns: 20, seed: seed + round });
      for (const request of batch) {
        if (sent++ >= requests) return;
        const startedAt = Date.now();
        const answer = await send(base, request);
        if (process.env.SOAK_DEBUG && Date.now() - startedAt > 2000)
          console.error(
            `soak: slow ${Date.now() - startedAt} ms ${answer.status} ${request.method} ${request.url.slice(0, 100)} ${JSON.stringify(request.headers).slice(0, 300)} ${request.body?.slice(0, 100)}`,
          );
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        const problem =
          answer.status === 0
            ? `no answer: ${answer.text}`
            : judge(answer.status, answer.contentType, answer.text);
        if (problem) violation(`fuzz ${request.method} ${request.url.slice(0, 150)}: ${problem}`);
      }
      if (round % 500 === 0) console.log(`soak: fuzz ${sent} requests sent`);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  console.log(
    `soak: fuzz over ${targets.length} operations, answers by status ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
}
