/**
 * A sample of the schema-driven fuzzer (scripts/soak/fuzz-core.ts; the 100,000-request run is
 * `npm run soak -- --fuzz`): every operation of /openapi.json, valid-shaped and broken requests with
 * real credentials. No answer may be a 500, leak a stack or SQL, or carry an undocumented code.
 */
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type FuzzRequest, judge, requestOf, targetsOf } from '../../scripts/soak/fuzz-core.ts';
import { CPF, createApiKey, startWorld } from '../support/world.ts';

const REQUESTS = 1500;
const world = await startWorld({ sandboxSettleMs: 0 });
afterAll(() => world.close());
const ws = await world.workspace({ settlementKey: true, fund: '1000000' });
const partyKey = await createApiKey(world.app, ws.owner, 'sandbox', { party_id: ws.owner.defaultPartyId });
const doc = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
const targets = targetsOf(doc);

async function send(request: FuzzRequest) {
  const res = await world.app.inject({
    method: request.method as 'GET',
    url: request.url,
    headers: request.headers,
    ...(request.body === undefined ? {} : { payload: request.body }),
  });
  return { status: res.statusCode, contentType: String(res.headers['content-type'] ?? ''), text: res.body };
}

describe('schema-driven fuzzing', () => {
  it('covers every operation of the OpenAPI document', () => {
    expect(targets.length).toBeGreaterThan(50);
    expect(targets.map((t) => `${t.method} ${t.path}`)).toContain('POST /v1/{env}/pix/payouts');
  });

  it(`${REQUESTS} requests: no 500, no leaked internals, every 4xx a documented code`, async () => {
    // A payout of the key's own: the fuzzer's ids then sometimes hit a real record.
    await ws.api.post('/v1/sandbox/pix/payouts', { amount_minor: '100', pix_key: CPF });
    const creds = {
      workspaceId: ws.owner.workspaceId,
      apiKey: ws.apiKey,
      session: ws.owner.sessionToken,
      partyKey: partyKey.secret,
    };
    const problems: string[] = [];
    const perTarget = Math.ceil(REQUESTS / targets.length);
    for (const [index, target] of targets.entries()) {
      for (const request of fc.sample(requestOf(target, creds), {
        numRuns: perTarget,
        seed: 18_000 + index,
      })) {
        const answer = await send(request);
        const problem = judge(answer.status, answer.contentType, answer.text);
        if (problem) problems.push(`${request.method} ${request.url.slice(0, 120)}: ${problem}`);
      }
    }
    expect(problems.slice(0, 20)).toEqual([]);
  }, 600_000);
});
