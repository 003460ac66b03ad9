import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { partyAccount, systemAccount } from '../../src/ledger/accounts.ts';
import { transfer } from '../../src/ledger/ledger.ts';
import { authHeaders, startWorld } from '../support/world.ts';

const world = await startWorld();
afterAll(() => world.close());
const ws = await world.workspace('CSV export');
const { api } = ws;
const headers = authHeaders(ws.apiKey, ws.owner.workspaceId);
const { workspaceId, defaultPartyId: party } = ws.owner;
const customer = await ws.addParty('Cliente');

const HEADER =
  'posted_at,date,id,journal_id,party_id,currency,kind,direction,amount,amount_minor,reference_type,reference_id';

/** A credit of `amount` BRL minor units to a party at an instant, with a reference id of our choosing. */
const credit = (referenceId: string, at: string, amount: bigint, to = party) =>
  world.db.transaction((tx) =>
    transfer(tx, {
      workspaceId,
      environment: 'sandbox',
      referenceType: 'payment',
      referenceId,
      from: systemAccount.pixSettlement(workspaceId, 'sandbox'),
      to: partyAccount(workspaceId, 'sandbox', to, 'BRL'),
      amount,
      at: new Date(at),
    }),
  );

beforeAll(async () => {
  // 02:30 UTC on 1 March is still 28 February in São Paulo (UTC−3); 03:00 UTC is its first instant of March.
  await credit('late-february', '2026-03-01T02:30:00.000Z', 7400n);
  await credit('first-of-march', '2026-03-01T03:00:00.000Z', 100n);
  await credit('=HYPERLINK("http://x.example","y")', '2026-03-10T12:00:00.000Z', 1n);
  await credit('-2+3', '2026-03-10T12:00:01.000Z', 2n);
  await credit('@SUM(A1)', '2026-03-10T12:00:02.000Z', 3n);
  await credit('a,b "c"\nd', '2026-03-10T12:00:03.000Z', 4n);
  await credit('customer', '2026-03-15T15:00:00.000Z', 999n, customer);
  await credit('last-instant-of-march', '2026-04-01T02:59:59.999Z', 5n);
  await credit('first-of-april', '2026-04-01T03:00:00.000Z', 6n);
});

/** The statement pages the export reads: the query that joins postings to their journals. */
const isPageQuery = (text: string) => text.includes('FROM ledger_postings p JOIN ledger_journals j');

/** Counts the export's page queries, and makes the nth and later fail as a lost connection would. */
function watchPages(failFrom = Number.POSITIVE_INFINITY) {
  const seen = { pages: 0 };
  const query = world.db.query.bind(world.db);
  vi.spyOn(world.db, 'query').mockImplementation(((text: string, params?: readonly unknown[]) => {
    if (!isPageQuery(text)) return query(text, params);
    seen.pages += 1;
    if (seen.pages >= failFrom) return Promise.reject(new Error('Connection terminated unexpectedly'));
    return query(text, params);
  }) as typeof world.db.query);
  return seen;
}
afterEach(() => vi.restoreAllMocks());

/** RFC 4180 records, parsed independently of the writer. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  let i = 0;
  const take = (n = 1) => {
    i += n;
  };
  while (i < text.length) {
    const c = text[i]!;
    if (quoted && c === '"' && text[i + 1] === '"') {
      cell += '"';
      take(2);
    } else if (c === '"') {
      quoted = !quoted;
      take();
    } else if (!quoted && c === ',') {
      record.push(cell);
      cell = '';
      take();
    } else if (!quoted && c === '\r' && text[i + 1] === '\n') {
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
      take(2);
    } else {
      cell += c;
      take();
    }
  }
  expect(cell, 'the file ends with CRLF').toBe('');
  return records;
}

type Row = Record<string, string>;
async function exportCsv(
  query: string,
): Promise<{ rows: Row[]; text: string; headers: Record<string, unknown> }> {
  const res = await api.get(`/v1/sandbox/statement.csv?${query}`);
  expect(res.statusCode, res.body).toBe(200);
  const [header, ...records] = parseCsv(res.body);
  expect(header!.join(',')).toBe(HEADER);
  const rows = records.map((record) => Object.fromEntries(header!.map((name, i) => [name, record[i]!])));
  return { rows, text: res.body, headers: res.headers };
}

describe('GET /v1/{env}/statement.csv', () => {
  it('answers a CSV file named for its range, header first, CRLF line ends, streamed', async () => {
    const res = await api.get('/v1/sandbox/statement.csv?from=2026-03-01&to=2026-03-31');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="lastro-statement-sandbox-2026-03-01-to-2026-03-31.csv"',
    );
    expect(res.headers['x-time-zone']).toBe('America/Sao_Paulo');
    // A stream has no length known in advance.
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.body.startsWith(`${HEADER}\r\n`)).toBe(true);
    expect(res.body.replace(/"[^"]*"/g, '').replace(/\r\n/g, '')).not.toMatch(/[\r\n]/);
  });

  it('is documented in the OpenAPI document as the text/csv it serves', async () => {
    const document = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const get = document.paths['/v1/{env}/statement.csv'].get;
    expect(Object.keys(get.responses['200'].content)).toEqual(['text/csv']);
    expect(Object.keys(get.responses['200'].headers)).toEqual(['Content-Disposition', 'X-Time-Zone']);
    expect(get.description).toContain('=, +, -, @, a tab or a carriage return');
    expect(get.description).toContain('only a transfer that completed is a whole file');
    expect(get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['from', 'to', 'timezone', 'currency', 'kind', 'party_id']),
    );
  });

  it('takes dates as whole days in São Paulo: a line at 02:30 UTC belongs to the day before', async () => {
    const { rows } = await exportCsv('from=2026-03-01&to=2026-03-31');
    expect(rows.map((r) => r.reference_id)).toEqual([
      'first-of-march',
      '\'=HYPERLINK("http://x.example","y")',
      "'-2+3",
      "'@SUM(A1)",
      'a,b "c"\nd',
      'customer',
      'last-instant-of-march',
    ]);
    const february = await exportCsv('from=2026-02-28&to=2026-02-28');
    expect(february.rows.map((r) => r.reference_id)).toEqual(['late-february']);
    expect(february.rows[0]).toMatchObject({
      posted_at: '2026-02-28T23:30:00.000-03:00',
      date: '2026-02-28',
      currency: 'BRL',
      kind: 'available',
      direction: 'credit',
      amount: '74.00',
      amount_minor: '7400',
      reference_type: 'payment',
      party_id: party,
    });
    const last = (await exportCsv('from=2026-03-31&to=2026-03-31')).rows;
    expect(last.map((r) => [r.reference_id, r.posted_at, r.date])).toEqual([
      ['last-instant-of-march', '2026-03-31T23:59:59.999-03:00', '2026-03-31'],
    ]);
  });

  it('renders times and days in the time zone asked for', async () => {
    const { rows, headers } = await exportCsv('from=2026-03-01&to=2026-03-01&timezone=UTC');
    expect(headers['x-time-zone']).toBe('UTC');
    expect(rows.map((r) => [r.reference_id, r.posted_at, r.date])).toEqual([
      ['late-february', '2026-03-01T02:30:00.000+00:00', '2026-03-01'],
      ['first-of-march', '2026-03-01T03:00:00.000+00:00', '2026-03-01'],
    ]);
    const tokyo = await exportCsv('from=2026-03-01&to=2026-03-01&timezone=Asia/Tokyo');
    expect(tokyo.rows.map((r) => r.posted_at)).toEqual([
      '2026-03-01T11:30:00.000+09:00',
      '2026-03-01T12:00:00.000+09:00',
    ]);
  });

  it('takes any IANA zone name Intl knows, and says which in X-Time-Zone', async () => {
    const kolkata = await exportCsv('from=2026-03-01&to=2026-03-01&timezone=Asia/Kolkata');
    expect(kolkata.headers['x-time-zone']).toBe('Asia/Kolkata');
    expect(kolkata.rows.map((r) => r.posted_at)).toEqual([
      '2026-03-01T08:00:00.000+05:30',
      '2026-03-01T08:30:00.000+05:30',
    ]);
    const etc = await exportCsv('from=2026-03-01&to=2026-03-01&timezone=Etc/UTC');
    expect(etc.headers['x-time-zone']).toBe('Etc/UTC');
    const lower = await exportCsv('from=2026-03-01&to=2026-03-01&timezone=america/sao_paulo');
    expect(lower.headers['x-time-zone']).toBe('America/Sao_Paulo');
  });

  it('a day the zone skipped is an empty file, not an error', async () => {
    const { rows, headers } = await exportCsv('from=2011-12-30&to=2011-12-30&timezone=Pacific/Apia');
    expect(rows).toEqual([]);
    expect(headers['content-disposition']).toBe(
      'attachment; filename="lastro-statement-sandbox-2011-12-30-to-2011-12-30.csv"',
    );
    expect((await api.get('/v1/sandbox/statement.csv?from=2026-03-02&to=2026-03-01')).statusCode).toBe(400);
  });

  it('takes date-times with their offset, from inclusive and to exclusive', async () => {
    const { rows } = await exportCsv(
      `from=${encodeURIComponent('2026-03-01T00:00:00-03:00')}&to=2026-04-01T02:59:59.999Z`,
    );
    expect(rows[0]!.reference_id).toBe('first-of-march');
    expect(rows.at(-1)!.reference_id).toBe('customer');
  });

  it('holds the same lines as the JSON statement for the range, oldest first', async () => {
    const { rows } = await exportCsv('from=2026-03-01&to=2026-03-31');
    const json = await api.get(
      '/v1/sandbox/statement?from=2026-03-01T03:00:00Z&to=2026-04-01T03:00:00Z&limit=100',
    );
    const lines = json.json().data.reverse();
    expect(rows).toHaveLength(lines.length);
    rows.forEach((row, i) => {
      const line = lines[i];
      expect(Date.parse(row.posted_at!)).toBe(Date.parse(line.posted_at));
      const { posted_at: _l, date: _d, amount, reference_id: rid, ...same } = row;
      expect(rid!.replace(/^'(?=[=+\-@])/, '')).toBe(line.reference_id);
      expect(same).toEqual({
        id: line.id,
        journal_id: line.journal_id,
        party_id: line.party_id,
        currency: line.currency,
        kind: line.kind,
        direction: line.direction,
        amount_minor: line.amount_minor,
        reference_type: line.reference_type,
      });
      expect(amount).toBe((Number(line.amount_minor) / 100).toFixed(2));
    });
  });

  it('filters by party, kind and currency', async () => {
    const ofCustomer = await exportCsv(`from=2026-03-01&to=2026-03-31&party_id=${customer}`);
    expect(ofCustomer.rows.map((r) => r.reference_id)).toEqual(['customer']);
    expect((await exportCsv('from=2026-03-01&to=2026-03-31&kind=locked')).rows).toEqual([]);
    expect((await exportCsv('from=2026-03-01&to=2026-03-31&currency=USDT')).rows).toEqual([]);
    expect((await exportCsv('from=2026-03-01&to=2026-03-31&currency=brl')).rows).toHaveLength(7);
  });

  it("a party-scoped key gets its own party's lines only, and 403 for another party", async () => {
    const scoped = await ws.keyFor(customer);
    const res = await scoped.get('/v1/sandbox/statement.csv?from=2026-01-01&to=2026-12-31');
    expect(res.statusCode, res.body).toBe(200);
    const [, ...records] = parseCsv(res.body);
    expect(records.map((r) => r[4])).toEqual([customer]);
    const other = await scoped.get(
      `/v1/sandbox/statement.csv?from=2026-01-01&to=2026-12-31&party_id=${party}`,
    );
    expect(other.statusCode).toBe(403);
    expect(other.json().error).toBe('forbidden');
  });

  it("another workspace's export holds none of these lines", async () => {
    const other = await world.workspace('Other');
    const res = await other.api.get('/v1/sandbox/statement.csv?from=2026-01-01&to=2026-12-31');
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`${HEADER}\r\n`);
  });

  it('reads a range longer than a page whole, in order, with no line twice', async () => {
    await world.db.transaction(async (tx) => {
      for (let i = 0; i < 1203; i++) {
        await transfer(tx, {
          workspaceId,
          environment: 'sandbox',
          referenceType: 'payment',
          referenceId: `bulk-${i}`,
          from: systemAccount.pixSettlement(workspaceId, 'sandbox'),
          to: partyAccount(workspaceId, 'sandbox', party, 'BRL'),
          amount: 1n,
          // Three lines per instant, so pages also break between lines of one posted_at.
          at: new Date(Date.parse('2026-05-01T12:00:00.000Z') + Math.floor(i / 3) * 1000),
        });
      }
    });
    const { rows } = await exportCsv('from=2026-05-01&to=2026-05-01');
    expect(rows).toHaveLength(1203);
    expect(new Set(rows.map((r) => r.id)).size).toBe(1203);
    for (let i = 1; i < rows.length; i++) {
      const [a, b] = [rows[i - 1]!, rows[i]!];
      expect(a.posted_at! < b.posted_at! || (a.posted_at === b.posted_at && a.id! < b.id!)).toBe(true);
    }
  });

  it('a database that fails before the first line is 503 database_unavailable, not a 200', async () => {
    watchPages(1);
    const res = await api.get('/v1/sandbox/statement.csv?from=2026-03-01&to=2026-03-31');
    expect(res.statusCode, res.body).toBe(503);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.headers['content-disposition']).toBeUndefined();
    expect(res.headers['retry-after']).toBe('1');
    expect(res.json().error).toBe('database_unavailable');
  });

  it('a database that fails after the first page aborts the transfer: never a file that looks whole', async () => {
    watchPages(2);
    const address = await world.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/v1/sandbox/statement.csv?from=2026-05-01&to=2026-05-01`, {
      headers,
    });
    expect(res.status).toBe(200);
    await expect(res.text()).rejects.toThrow();
  });

  it('HEAD answers the headers without reading the file', async () => {
    const seen = watchPages();
    const res = await world.app.inject({
      method: 'HEAD',
      url: '/v1/sandbox/statement.csv?from=2026-01-01&to=2026-12-31',
      headers,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      'attachment; filename="lastro-statement-sandbox-2026-01-01-to-2026-12-31.csv"',
    );
    expect(res.body).toBe('');
    // The length of the file is not known without reading it, as on GET.
    expect(res.headers['content-length']).toBeUndefined();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(seen.pages).toBe(0);
  });

  it.each([
    ['to before from', 'from=2026-03-31&to=2026-03-01', 'querystring.to'],
    ['an empty range', 'from=2026-03-01T03:00:00Z&to=2026-03-01T03:00:00Z', 'querystring.to'],
    ['no from', 'to=2026-03-01', 'from'],
    ['no to', 'from=2026-03-01', 'to'],
    ['a day that does not exist', 'from=2026-02-30&to=2026-03-01', 'from'],
    ['a date-time without offset', 'from=2026-03-01T00:00:00&to=2026-03-02', 'from'],
    ['year 0000', 'from=0000-01-01&to=2026-03-01', 'querystring.from'],
    [
      'a from whose instant is in year 0',
      'from=0001-01-01T00:00:00%2B01:00&to=2026-03-01',
      'querystring.from',
    ],
    ['a to whose next midnight is in year 10000', 'from=2026-03-01&to=9999-12-31', 'querystring.to'],
    ['an unknown time zone', 'from=2026-03-01&to=2026-03-02&timezone=Mars/Olympus', 'querystring.timezone'],
    ['a misspelt bound', 'form=2026-03-01&to=2026-03-02', 'from'],
  ])('400 invalid_request for %s', async (_name, query, field) => {
    const res = await api.get(`/v1/sandbox/statement.csv?${query}`);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.headers['content-type']).toContain('application/json');
    expect(res.json().error).toBe('invalid_request');
    expect(JSON.stringify(res.json().details)).toContain(field);
  });

  it('400 unsupported_currency for a currency the ledger does not keep', async () => {
    const res = await api.get('/v1/sandbox/statement.csv?from=2026-03-01&to=2026-03-02&currency=EUR');
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('unsupported_currency');
  });
});
