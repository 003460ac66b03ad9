import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addParty, seedWorkspace } from '../../test/ledger/helpers.ts';
import { createTestDatabase } from '../../test/support/database.ts';
import type { Database, Tx } from '../db/types.ts';
import { newId } from '../platform/ids.ts';
import { accountId, balanceOf, partyAccount, systemAccount } from './accounts.ts';
import {
  InsufficientBalanceError,
  InvalidJournalError,
  moveKind,
  type PostingInput,
  postJournal,
  transfer,
} from './ledger.ts';

let db: Database;
let workspaceId: string;
let alice: string;
let bob: string;
const env = 'sandbox' as const;
const settlement = () => systemAccount.pixSettlement(workspaceId, env);
const avail = (party: string, currency: 'BRL' | 'USDT' | 'USDC' = 'BRL') =>
  partyAccount(workspaceId, env, party, currency);
const ref = { referenceType: 'test', referenceId: 'r' };

beforeAll(async () => {
  db = await createTestDatabase();
  const seeded = await seedWorkspace(db, 1);
  workspaceId = seeded.workspaceId;
  [alice, bob] = seeded.parties as [string, string];
});
afterAll(() => db.close());

const fund = (party: string, amount: bigint, currency: 'BRL' | 'USDT' | 'USDC' = 'BRL') =>
  db.transaction((tx) =>
    transfer(tx, {
      workspaceId,
      environment: env,
      ...ref,
      from:
        currency === 'BRL'
          ? settlement()
          : systemAccount.cryptoCustody(workspaceId, env, 'polygon', currency),
      to: avail(party!, currency),
      amount,
    }),
  );

/** A Tx that records every statement: a refused journal must not send one. */
function recordingTx(): Tx & { statements: string[] } {
  const statements: string[] = [];
  return {
    inTransaction: true,
    statements,
    query: async (text: string) => {
      statements.push(text);
      return { rows: [], rowCount: 0 };
    },
    exec: async (text: string) => {
      statements.push(text);
    },
    later: (text: string) => {
      statements.push(text);
    },
    hold: (...writes: { text: string }[]) => {
      for (const write of writes) statements.push(write.text);
    },
    settle: async () => {},
  } as Tx & { statements: string[] };
}

describe('journal validation (before the database)', () => {
  const cases: [string, () => PostingInput[]][] = [
    ['one posting', () => [{ account: settlement(), direction: 'debit', amount: 5n }]],
    [
      'unbalanced',
      () => [
        { account: settlement(), direction: 'debit', amount: 5n },
        { account: systemAccount.feeRevenue(workspaceId, env, 'BRL'), direction: 'credit', amount: 4n },
      ],
    ],
    [
      'balanced in total but not per currency',
      () => [
        { account: systemAccount.fxInventory(workspaceId, env, 'BRL'), direction: 'debit', amount: 5n },
        { account: systemAccount.fxInventory(workspaceId, env, 'USDT'), direction: 'credit', amount: 5n },
      ],
    ],
    [
      'zero amount',
      () => [
        { account: settlement(), direction: 'debit', amount: 0n },
        { account: systemAccount.feeRevenue(workspaceId, env, 'BRL'), direction: 'credit', amount: 0n },
      ],
    ],
    [
      'negative amount',
      () => [
        { account: settlement(), direction: 'debit', amount: -5n },
        { account: systemAccount.feeRevenue(workspaceId, env, 'BRL'), direction: 'credit', amount: -5n },
      ],
    ],
    [
      'a number instead of a bigint',
      () => [
        { account: settlement(), direction: 'debit', amount: 5 as unknown as bigint },
        {
          account: systemAccount.feeRevenue(workspaceId, env, 'BRL'),
          direction: 'credit',
          amount: 5 as unknown as bigint,
        },
      ],
    ],
    [
      'an account of the other environment',
      () => [
        { account: systemAccount.pixSettlement(workspaceId, 'live'), direction: 'debit', amount: 5n },
        { account: systemAccount.feeRevenue(workspaceId, env, 'BRL'), direction: 'credit', amount: 5n },
      ],
    ],
  ];
  it.each(cases)('refuses %s without a single statement', async (_name, postings) => {
    const tx = recordingTx();
    await expect(
      postJournal(tx, { workspaceId: workspaceId, environment: env, ...ref, postings: postings() }),
    ).rejects.toBeInstanceOf(InvalidJournalError);
    expect(tx.statements).toEqual([]);
  });

  it('refuses a system account of another workspace', async () => {
    const tx = recordingTx();
    const other = systemAccount.pixSettlement('00000000-0000-4000-8000-000000000000', env);
    await expect(
      transfer(tx, { workspaceId, environment: env, ...ref, from: other, to: avail(alice), amount: 1n }),
    ).rejects.toBeInstanceOf(InvalidJournalError);
    expect(tx.statements).toEqual([]);
  });

  it('refuses a party account of another workspace', async () => {
    const tx = recordingTx();
    const other = partyAccount('00000000-0000-4000-8000-000000000000', env, alice, 'BRL');
    await expect(
      transfer(tx, { workspaceId, environment: env, ...ref, from: settlement(), to: other, amount: 1n }),
    ).rejects.toBeInstanceOf(InvalidJournalError);
    expect(tx.statements).toEqual([]);
  });
});

describe('posting', () => {
  it('credits a party from a system account, creating both accounts on first use', async () => {
    const journal = await fund(alice, 1000n);
    expect(journal.postings.map((p) => [p.direction, p.amount])).toEqual([
      ['debit', 1000n],
      ['credit', 1000n],
    ]);
    expect(await balanceOf(db, avail(alice))).toBe(1000n);
    const { rows } = await db.query<{ balance: bigint }>(
      'SELECT balance FROM ledger_balances WHERE account_id = $1',
      [accountId(settlement())],
    );
    expect(rows[0]!.balance).toBeLessThanOrEqual(-1000n);
  });

  it('moves between kinds of one party', async () => {
    await db.transaction((tx) =>
      moveKind(tx, {
        workspaceId,
        environment: env,
        partyId: alice,
        currency: 'BRL',
        from: 'available',
        to: 'locked',
        amount: 300n,
        ...ref,
      }),
    );
    expect(await balanceOf(db, avail(alice))).toBe(700n);
    expect(await balanceOf(db, partyAccount(workspaceId, env, alice, 'BRL', 'locked'))).toBe(300n);
    await db.transaction((tx) =>
      moveKind(tx, {
        workspaceId,
        environment: env,
        partyId: alice,
        currency: 'BRL',
        from: 'locked',
        to: 'available',
        amount: 300n,
        ...ref,
      }),
    );
    expect(await balanceOf(db, avail(alice))).toBe(1000n);
  });

  it('refuses a debit its balance cannot cover with a typed insufficient_balance', async () => {
    const error = await db
      .transaction((tx) =>
        transfer(tx, {
          workspaceId,
          environment: env,
          ...ref,
          from: avail(alice),
          to: avail(bob),
          amount: 1001n,
        }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InsufficientBalanceError);
    expect((error as InsufficientBalanceError).code).toBe('insufficient_balance');
    expect((error as InsufficientBalanceError).status).toBe(422);
    expect((error as InsufficientBalanceError).account).toEqual(avail(alice));
    expect(await balanceOf(db, avail(alice))).toBe(1000n);
  });

  it('refuses a debit of a party account that was never credited', async () => {
    const carol = await addParty(db, workspaceId);
    await expect(
      db.transaction((tx) =>
        transfer(tx, {
          workspaceId,
          environment: env,
          ...ref,
          from: avail(carol),
          to: avail(bob),
          amount: 1n,
        }),
      ),
    ).rejects.toBeInstanceOf(InsufficientBalanceError);
    const { rows } = await db.query('SELECT 1 FROM ledger_accounts WHERE party_id = $1', [carol]);
    expect(rows).toEqual([]);
  });

  it('a refused journal leaves no trace even when the caller catches the error and commits', async () => {
    // Pick a debtor whose account sorts after every other account of the journal: the changes made
    // before it (in account order) succeed and must then be undone.
    const others = [settlement(), avail(bob), systemAccount.feeRevenue(workspaceId, env, 'BRL')].map(
      accountId,
    );
    let debtor = await addParty(db, workspaceId);
    while (accountId(avail(debtor)) < [...others].sort().at(-1)!) {
      debtor = await addParty(db, workspaceId);
    }
    await fund(debtor, 100n);
    const before = await db.query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM ledger_postings');
    const bobBefore = await balanceOf(db, avail(bob));
    await db.transaction(async (tx) => {
      await expect(
        postJournal(tx, {
          workspaceId,
          environment: env,
          ...ref,
          postings: [
            { account: settlement(), direction: 'debit', amount: 10n },
            { account: avail(bob), direction: 'credit', amount: 10n },
            {
              account: systemAccount.feeRevenue(workspaceId, env, 'BRL'),
              direction: 'credit',
              amount: 5000n,
            },
            { account: avail(debtor), direction: 'debit', amount: 5000n },
          ],
        }),
      ).rejects.toBeInstanceOf(InsufficientBalanceError);
    });
    expect(await balanceOf(db, avail(debtor))).toBe(100n);
    expect(await balanceOf(db, avail(bob))).toBe(bobBefore);
    const after = await db.query<{ n: bigint }>('SELECT count(*)::bigint AS n FROM ledger_postings');
    expect(after.rows[0]!.n).toBe(before.rows[0]!.n);
  });

  it('nets several postings of one account (a debit covered by a credit of the same journal)', async () => {
    await db.transaction((tx) =>
      postJournal(tx, {
        workspaceId,
        environment: env,
        ...ref,
        postings: [
          { account: settlement(), direction: 'debit', amount: 2000n },
          { account: avail(bob), direction: 'credit', amount: 2000n },
          { account: avail(bob), direction: 'debit', amount: 1500n },
          { account: avail(alice), direction: 'credit', amount: 1500n },
        ],
      }),
    );
    expect(await balanceOf(db, avail(bob))).toBe(500n);
    expect(await balanceOf(db, avail(alice))).toBe(2500n);
  });

  it('keeps currencies apart', async () => {
    await fund(alice, 7_000_000n, 'USDT');
    expect(await balanceOf(db, avail(alice, 'USDT'))).toBe(7_000_000n);
    expect(await balanceOf(db, avail(alice, 'USDC'))).toBe(0n);
    await expect(
      db.transaction((tx) =>
        transfer(tx, {
          workspaceId,
          environment: env,
          ...ref,
          from: avail(alice, 'USDC'),
          to: avail(bob, 'USDC'),
          amount: 1n,
        }),
      ),
    ).rejects.toBeInstanceOf(InsufficientBalanceError);
  });
});

describe('database guards', () => {
  it('journals and postings cannot be updated or deleted', async () => {
    await expect(db.query('UPDATE ledger_postings SET amount = amount + 1')).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM ledger_postings')).rejects.toThrow(/append-only/);
    await expect(db.query("UPDATE ledger_journals SET reference_type = 'x'")).rejects.toThrow(/append-only/);
    await expect(db.query('DELETE FROM ledger_journals')).rejects.toThrow(/append-only/);
    await expect(db.query('TRUNCATE ledger_postings, ledger_journals')).rejects.toThrow(/append-only/);
  });

  it('ledger_post takes no account of another workspace and no journal without postings, and writes nothing', async () => {
    // Postings carry no foreign key (migration 0036): the function is what keeps a journal's accounts
    // in its own workspace, even when called around postJournal's own checks.
    await fund(alice, 1n); // this workspace's own accounts exist: only the foreign one can be missing
    const other = await seedWorkspace(db, 1);
    await db.transaction((tx) =>
      transfer(tx, {
        workspaceId: other.workspaceId,
        environment: env,
        ...ref,
        from: systemAccount.pixSettlement(other.workspaceId, env),
        to: partyAccount(other.workspaceId, env, other.parties[0]!, 'BRL'),
        amount: 500n,
      }),
    );
    const foreign = accountId(partyAccount(other.workspaceId, env, other.parties[0]!, 'BRL'));
    const counts = () =>
      db.query<{ journals: number; postings: number }>(
        `SELECT (SELECT count(*) FROM ledger_journals WHERE workspace_id = $1)::int AS journals,
                (SELECT count(*) FROM ledger_postings WHERE workspace_id = $1)::int AS postings`,
        [workspaceId],
      );
    const before = (await counts()).rows[0];
    const aliceBefore = await balanceOf(db, avail(alice));
    const { rows } = await db.query<{ outcome: string; failed_account: string }>(
      'SELECT outcome, failed_account FROM ledger_post($1, $2, $3, $4, $5, now(), $6::uuid[], $7::uuid[], $8::text[], $9::bigint[])',
      [
        newId(),
        workspaceId,
        env,
        'test',
        'foreign-account',
        [newId(), newId()],
        [foreign, accountId(settlement())],
        ['debit', 'credit'],
        ['100', '100'],
      ],
    );
    expect(rows[0]).toEqual({ outcome: 'missing', failed_account: foreign });
    expect((await counts()).rows[0]).toEqual(before);
    // Nor a journal without postings, which no posting's key would now tie to anything.
    await expect(
      db.query(
        'SELECT * FROM ledger_post($1, $2, $3, $4, $5, now(), $6::uuid[], $7::uuid[], $8::text[], $9::bigint[])',
        [newId(), workspaceId, env, 'test', 'empty', [], [], [], []],
      ),
    ).rejects.toMatchObject({ code: '23514' });
    // Nor postings whose columns do not line up: an account without an amount, or no account.
    const settlementId = accountId(settlement());
    const aliceId = accountId(avail(alice));
    for (const [accounts, amounts] of [
      [[settlementId, aliceId], ['1']],
      [
        [settlementId, null],
        ['1', '1'],
      ],
      [
        [settlementId, aliceId],
        ['1', null],
      ],
      [
        [settlementId, aliceId],
        ['1', '0'],
      ],
      [
        [settlementId, aliceId],
        ['-1', '1'],
      ],
    ] as const) {
      await expect(
        db.query(
          'SELECT * FROM ledger_post($1, $2, $3, $4, $5, now(), $6::uuid[], $7::uuid[], $8::text[], $9::bigint[])',
          [
            newId(),
            workspaceId,
            env,
            'test',
            'ragged',
            [newId(), newId()],
            accounts,
            ['debit', 'credit'],
            amounts,
          ],
        ),
      ).rejects.toMatchObject({ code: '23514' });
    }
    expect((await counts()).rows[0]).toEqual(before);
    expect(await balanceOf(db, avail(alice))).toBe(aliceBefore);
    expect(await balanceOf(db, partyAccount(other.workspaceId, env, other.parties[0]!, 'BRL'))).toBe(500n);
  });

  it('a party balance below zero is refused by the database itself', async () => {
    await expect(
      db.query('UPDATE ledger_balances SET balance = -1 WHERE account_id = $1', [accountId(avail(alice))]),
    ).rejects.toMatchObject({ code: '23514' });
    // A system account may go below zero: it is the other side of the parties' money.
    const { rows } = await db.query<{ n: bigint }>(
      'SELECT count(*)::bigint AS n FROM ledger_balances WHERE NOT non_negative AND balance < 0',
    );
    expect(rows[0]!.n).toBeGreaterThan(0n);
  });
});
