import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { moveKind, transfer } from '../../src/ledger/ledger.ts';
import { addParty, cashIn, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const { api, owner } = await world.workspace();
const { workspaceId, defaultPartyId: party } = owner;
const customer = await addParty(world.db, workspaceId);
const T0 = Date.parse('2026-03-01T12:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);

interface Line {
  id: string;
  posted_at: string;
  kind: string;
  direction: string;
  amount_minor: string;
  party_id: string;
  reference_id: string;
}

beforeAll(async () => {
  // 5 cash-ins of the default party at t = 0..4 s, 1 at t = 2 s for the customer, and a lock (two lines) at t = 5 s.
  const settlement = systemAccount.pixSettlement(workspaceId, 'sandbox');
  for (let i = 0; i < 5; i++) {
    await world.db.transaction((tx) =>
      transfer(tx, {
        workspaceId,
        environment: 'sandbox',
        referenceType: 'payment',
        referenceId: `p${i}`,
        from: settlement,
        to: partyAccount(workspaceId, 'sandbox', party, 'BRL'),
        amount: BigInt(100 + i),
        at: at(i),
      }),
    );
  }
  await world.db.transaction((tx) =>
    transfer(tx, {
      workspaceId,
      environment: 'sandbox',
      referenceType: 'payment',
      referenceId: 'c0',
      from: settlement,
      to: partyAccount(workspaceId, 'sandbox', customer, 'BRL'),
      amount: 999n,
      at: at(2),
    }),
  );
  await world.db.transaction((tx) =>
    moveKind(tx, {
      workspaceId,
      environment: 'sandbox',
      partyId: party,
      currency: 'BRL',
      from: 'available',
      to: 'locked',
      amount: 50n,
      referenceType: 'payment',
      referenceId: 'lock',
      at: at(5),
    }),
  );
});

const lines = async (query = ''): Promise<Line[]> => {
  const res = await api.get(`/v1/sandbox/statement${query}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
};

describe('GET /v1/{env}/statement', () => {
  it('lists every party-side line, newest first, with every field of the spec', async () => {
    const all = await lines();
    expect(all).toHaveLength(8);
    // c0 and p2 share posted_at; c0 was posted later, so its id is higher and it comes first.
    expect(all.map((l) => l.reference_id)).toEqual(['lock', 'lock', 'p4', 'p3', 'c0', 'p2', 'p1', 'p0']);
    const [first] = all;
    expect(Object.keys(first!).sort()).toEqual(
      [
        'amount_minor',
        'currency',
        'direction',
        'id',
        'journal_id',
        'kind',
        'party_id',
        'posted_at',
        'reference_id',
        'reference_type',
        'scale',
      ].sort(),
    );
    const p4 = all.find((l) => l.reference_id === 'p4')!;
    expect(p4).toMatchObject({
      reference_type: 'payment',
      posted_at: '2026-03-01T12:00:04.000Z',
      party_id: party,
      currency: 'BRL',
      kind: 'available',
      scale: 2,
      direction: 'credit',
      amount_minor: '104',
    });
    // The lock: a debit of available and a credit of locked, from the party's point of view.
    const lock = all.filter((l) => l.reference_id === 'lock');
    expect(lock.map((l) => [l.kind, l.direction, l.amount_minor]).sort()).toEqual([
      ['available', 'debit', '50'],
      ['locked', 'credit', '50'],
    ]);
    // Newest first; equal posted_at ordered by id, descending.
    for (let i = 1; i < all.length; i++) {
      const [a, b] = [all[i - 1]!, all[i]!];
      expect(a.posted_at > b.posted_at || (a.posted_at === b.posted_at && a.id > b.id)).toBe(true);
    }
    // System accounts never show.
    expect(all.every((l) => l.party_id === party || l.party_id === customer)).toBe(true);
  });

  it('pages with limit and cursor without gaps or repeats, ending with an empty page', async () => {
    const all = await lines();
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const page = await lines(`?limit=3${cursor ? `&cursor=${cursor}` : ''}`);
      if (page.length === 0) break;
      expect(page.length).toBeLessThanOrEqual(3);
      seen.push(...page.map((l) => l.id));
      cursor = page.at(-1)!.id;
    }
    expect(seen).toEqual(all.map((l) => l.id));
    // The last full page: the cursor of the oldest line gives an empty page.
    expect(await lines(`?cursor=${all.at(-1)!.id}`)).toEqual([]);
    // Paging across lines with the same posted_at (the two lines of the lock).
    const [lockA, lockB] = all;
    expect(lockA!.posted_at).toBe(lockB!.posted_at);
    expect((await lines(`?limit=1&cursor=${lockA!.id}`)).map((l) => l.id)).toEqual([lockB!.id]);
  });

  it('defaults to 50 lines and accepts 1..100', async () => {
    for (let i = 0; i < 52; i++) await cashIn(api, '1');
    expect(await lines()).toHaveLength(50);
    expect(await lines('?limit=100')).toHaveLength(60);
    expect(await lines('?limit=100&kind=available')).toHaveLength(59);
    expect(await lines('?limit=1')).toHaveLength(1);
  });

  it('from is inclusive and to exclusive on posted_at', async () => {
    const window = await lines('?from=2026-03-01T12:00:01.000Z&to=2026-03-01T12:00:04.000Z');
    expect(window.map((l) => l.reference_id)).toEqual(['p3', 'c0', 'p2', 'p1']);
    expect(await lines('?from=2026-03-01T12:00:04.000Z&to=2026-03-01T12:00:04.000Z')).toEqual([]);
    expect((await lines('?to=2026-03-01T12:00:00.001Z')).map((l) => l.reference_id)).toEqual(['p0']);
    expect(await lines('?from=2030-01-01T00:00:00Z')).toEqual([]);
  });

  it('filters by kind and by party', async () => {
    const locked = await lines('?kind=locked');
    expect(locked.map((l) => [l.reference_id, l.kind, l.direction])).toEqual([['lock', 'locked', 'credit']]);
    expect(await lines('?kind=trading')).toEqual([]);
    const ofCustomer = await lines(`?party_id=${customer}`);
    expect(ofCustomer.map((l) => l.reference_id)).toEqual(['c0']);
  });

  it('answers 400 invalid_request for bad query values', async () => {
    for (const query of [
      '?limit=0',
      '?limit=101',
      '?limit=abc',
      '?cursor=nope',
      '?kind=frozen',
      '?from=yesterday',
      '?to=2026-13-01T00:00:00Z',
      '?party_id=123',
      // An id that is not a statement line of this workspace: unknown cursor.
      '?cursor=01890a5d-ac96-774b-bcce-b302099a8057',
    ]) {
      const res = await api.get(`/v1/sandbox/statement${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().error, query).toBe('invalid_request');
      expect(typeof res.json().message).toBe('string');
    }
  });

  it('an id of another workspace is an unknown cursor', async () => {
    const other = await world.workspace();
    const payment = await cashIn(other.api, '5');
    const [line] = (await other.api.get('/v1/sandbox/statement')).json().data;
    expect(line.reference_id).toBe(payment.id);
    const res = await api.get(`/v1/sandbox/statement?cursor=${line.id}`);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('invalid_request');
  });
});
