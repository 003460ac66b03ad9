/**
 * The sandbox helpers (POST /v1/{env}/simulate/...) exist in sandbox only: API.md says
 * "a live path → 404", and they do answer 404 on /v1/live. Yet their OpenAPI `env` path parameter
 * (EnvParams/EnvIdParams, used by src/modules/pix/routes/simulate.ts:20 and
 * src/modules/pix/routes/simulate-cash-in.ts) lists `live` as a valid value, so the document advertises
 * /v1/live/simulate/... routes that do not exist.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());

const envValues = (schema: { enum?: string[]; anyOf?: { enum?: string[] }[] }): string[] =>
  schema.enum ?? (schema.anyOf ?? []).flatMap((s) => s.enum ?? []);

describe('sandbox helpers in the OpenAPI document', () => {
  it('a live path answers 404, and the document does not offer live for them', async () => {
    const { session } = await world.workspace();
    const res = await session.post('/v1/live/simulate/pix/cash-in', { amount_minor: '100' });
    expect(res.statusCode).toBe(404);

    const document = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const offered = Object.entries(
      document.paths as Record<
        string,
        Record<string, { parameters: { in: string; name: string; schema: never }[] }>
      >,
    )
      .filter(([path]) => path.startsWith('/v1/{env}/simulate/'))
      .flatMap(([path, ops]) =>
        Object.values(ops).map((op) => {
          const env = op.parameters.find((p) => p.in === 'path' && p.name === 'env')!;
          return [path, envValues(env.schema)] as const;
        }),
      )
      .filter(([, values]) => values.includes('live'))
      .map(([path]) => path);
    expect(offered).toEqual([]);
  });
});
