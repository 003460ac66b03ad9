/**
 * GET /v1/{env}/reports/daily: the balance at a day's end is that day's, money that came later left
 * out, and a party-scoped key sees only its own party's balance and cash-ins.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { localDateOf } from '../../src/platform/time-zone.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { addParty, type Client, cashIn, client, createApiKey, signupOwner } from '../support/world.ts';

let ctx: TestContext;
let api: Client;
let partyApi: Client;
let today: string;
let yesterday: string;

beforeAll(async () => {
  ctx = await startTestApp();
  const owner = await signupOwner(ctx.app, 'Saldos');
  api = client(ctx.app, (await createApiKey(ctx.app, owner, 'sandbox')).secret, owner.workspaceId);
  const party = await addParty(ctx.db, owner.workspaceId);
  const partyKey = await createApiKey(ctx.app, owner, 'sandbox', { party_id: party });
  partyApi = client(ctx.app, partyKey.secret, owner.workspaceId);
  today = localDateOf(ctx.clock.now(), 'America/Sao_Paulo');
  yesterday = localDateOf(new Date(ctx.clock.now().getTime() - 86_400_000), 'America/Sao_Paulo');
  await cashIn(api, '10000');
  await cashIn(api, '2500', party);
});
afterAll(() => ctx.close());

const days = async (who: Client, from: string, to: string) => {
  const res = await who.get(`/v1/sandbox/reports/daily?from=${from}&to=${to}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.days as { day: string; in_minor: string; balance_minor: string }[];
};

it('a past day ends at its own balance, without the money that came after it', async () => {
  expect(await days(api, yesterday, yesterday)).toEqual([
    { day: yesterday, in_minor: '0', out_minor: '0', fees_minor: '0', balance_minor: '0' },
  ]);
});

it('a party-scoped key sees its own party’s cash-ins and balance only', async () => {
  const own = await days(partyApi, yesterday, today);
  expect(own.map((d) => [d.day, d.in_minor, d.balance_minor])).toEqual([
    [yesterday, '0', '0'],
    [today, '2500', expect.stringMatching(/^\d+$/)],
  ]);
  expect(BigInt(own[1]!.balance_minor)).toBeLessThanOrEqual(2500n);
  const all = await days(api, today, today);
  expect(all[0]!.in_minor).toBe('12500');
  expect(BigInt(all[0]!.balance_minor)).toBeGreaterThan(BigInt(own[1]!.balance_minor));
});
