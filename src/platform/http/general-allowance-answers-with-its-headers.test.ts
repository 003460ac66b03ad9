/**
 * Every answer counted against the general allowance says what is left of it (x-ratelimit-limit,
 * -remaining, -reset), and the request past it is 429 rate_limited with Retry-After, as the plugin's
 * hook answered before the count moved into memory (local-allowance.ts).
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../../../test/support/app.ts';
import { createApiKey, type Owner, signupOwner } from '../../../test/support/fixtures.ts';

let ctx: TestContext;
let owner: Owner;
let apiKey: string;
beforeAll(async () => {
  ctx = await startTestApp({ rateLimitMax: 3, rateLimitWindowMs: 60_000 });
  owner = await signupOwner(ctx.app);
  apiKey = (await createApiKey(ctx.app, owner)).secret;
});
afterAll(() => ctx.close());

const list = () =>
  ctx.app.inject({
    method: 'GET',
    url: '/v1/sandbox/payments',
    headers: { authorization: `Bearer ${apiKey}`, 'x-workspace-id': owner.workspaceId },
  });

it('says what is left of the allowance, then refuses with 429 and Retry-After', async () => {
  const answers = [await list(), await list(), await list(), await list()];
  expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 429]);
  expect(answers.map((res) => res.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
  for (const res of answers) {
    expect(res.headers['x-ratelimit-limit']).toBe('3');
    const reset = Number(res.headers['x-ratelimit-reset']);
    expect(reset).toBeGreaterThan(0);
    expect(reset).toBeLessThanOrEqual(60);
  }
  const refused = answers[3]!;
  expect(refused.json().error).toBe('rate_limited');
  expect(refused.headers['retry-after']).toBe(refused.headers['x-ratelimit-reset']);
});
