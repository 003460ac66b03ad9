/**
 * The layout's rules, checked over the source (docs/architecture.md, "Boundaries"):
 * - a module imports another module only through its service (service.ts), schemas or
 *   manifest: never its repo, routes or internals;
 * - a module writes only its own tables (plus the exceptions named below);
 * - a module reads only its own tables too: a read of another owner's table is named below with its
 *   reason, or it fails;
 * - providers import neither modules nor flows; the ledger and the platform import no module;
 * - no import cycle anywhere in src.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const rel = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

/** Every relative import of a file, resolved to a path under src (type-only imports included). */
function importsOf(file: string, text = readFileSync(file, 'utf8')): string[] {
  const specifiers = [
    ...text.matchAll(/(?:import|export)[^'";]*?from\s*['"](\.[^'"]+)['"]|import\s*\(?\s*['"](\.[^'"]+)['"]/g),
  ];
  return specifiers.map((match) => rel(path.resolve(path.dirname(file), (match[1] ?? match[2])!)));
}

const moduleOf = (file: string) => /^modules\/([^/]+)\//.exec(file)?.[1];

/** What another module may import from a module: its service, its schemas and its manifest. */
const PUBLIC_FILES = /^modules\/[^/]+\/(service|schemas|index)\.ts$/;

/** Who writes each table. A table no one owns here fails the test: declare it when you add it. */
const TABLE_WRITERS: Record<string, string[]> = {
  users: ['modules/owner'],
  user_recovery_codes: ['modules/owner'],
  sessions: ['modules/owner', 'platform/auth'],
  workspaces: ['modules/workspace'],
  workspace_members: ['modules/workspace'],
  // A workspace is born with its default entity party, in the workspace's own insert.
  parties: ['modules/parties', 'modules/workspace'],
  kyc_cases: ['modules/parties'],
  kyc_rfi_items: ['modules/parties'],
  api_keys: ['modules/api-keys', 'platform/auth'],
  audit_events: ['platform/audit.ts'],
  idempotency_keys: ['platform/idempotency.ts'],
  jobs: ['platform/jobs.ts'],
  events: ['platform/outbox.ts'],
  // The outbox fans an event out to its deliveries in the event's own statement.
  webhook_deliveries: ['modules/webhooks', 'platform/outbox.ts'],
  webhook_delivery_attempts: ['modules/webhooks'],
  webhook_endpoints: ['modules/webhooks'],
  payments: ['modules/payments'],
  settlement_keys: ['modules/pix'],
  fee_schedules: ['modules/pix'],
  psp_notifications: ['modules/pix'],
  pix_med_returns: ['modules/pix'],
  pix_unassigned: ['modules/pix'],
  pix_unassigned_returns: ['modules/pix'],
  pix_due_charges: ['modules/pix'],
  sandbox_clocks: ['modules/test-clock'],
  subscriptions: ['modules/subscriptions'],
  subscription_cycles: ['modules/subscriptions'],
  reconciliation_runs: ['modules/pix'],
  reconciliation_findings: ['modules/pix'],
  disputes: ['modules/disputes'],
  ledger_accounts: ['ledger'],
  ledger_balances: ['ledger'],
  ledger_journals: ['ledger'],
  ledger_postings: ['ledger'],
  ledger_seals: ['ledger'],
  ledger_seal_heads: ['ledger'],
  sandbox_pix_transfers: ['providers/pix'],
  sandbox_pix_received: ['providers/pix'],
  sandbox_chain_transfers: ['providers/chain'],
  evm_nonces: ['providers/chain/evm'],
  evm_transfers: ['providers/chain/evm'],
  evm_log_cursors: ['providers/chain/evm'],
  kms_keys: ['providers/kms'],
  rfq_quotes: ['modules/rfq'],
  rfq_pricing: ['modules/rfq'],
  wallets: ['modules/wallets'],
  whitelist_addresses: ['modules/wallets'],
  crypto_deposits: ['modules/crypto'],
  chain_watch_cursors: ['modules/crypto'],
  // The global slug registry is the one cross-tenant table (DESIGN.md Scale-out).
  payment_link_slugs: ['modules/links'],
  payment_links: ['modules/links'],
  payment_link_splits: ['modules/links'],
  payment_link_payments: ['modules/links'],
  schema_migrations: ['db'],
  // Items a background round set aside (any task's), written only through the platform's helper.
  set_aside_items: ['platform/set-aside.ts'],
};

/**
 * Who reads another owner's tables, and why. A table's writers read it freely; any other reader is
 * named here (a file, or a folder for all its files), or the read fails the test. Add a reader only
 * when asking the owner's service cannot do the same.
 */
const TABLE_READERS: Record<string, string[]> = {
  // The audit module is the read API over the trail every write leaves through the platform.
  audit_events: ['modules/audit'],
  // The events module lists the outbox; webhooks deliver its events with their payloads; verify
  // checks that every payment event matches a status its payment entered.
  events: ['modules/events', 'modules/webhooks', 'modules/verify'],
  // Authentication resolves a session's user on every request, before any module runs.
  users: ['platform/auth'],
  // Authentication checks membership (and a sub-account's parent); login lists the user's
  // workspaces; a workspace's default party is the party of a call that names none; verify finds
  // journals, payments and events of a workspace that does not exist (migration 0036).
  workspaces: [
    'platform/auth',
    'modules/owner',
    'modules/parties',
    'modules/pix/payout-context.ts',
    'modules/verify',
  ],
  workspace_members: ['platform/auth', 'modules/owner'],
  // A payout's context reads the paying party's status with its workspace's default in one statement.
  parties: ['modules/pix/payout-context.ts'],
  // verify checks the books across modules (read-only, by design). The checkout's payment list pages
  // and filters payments joined to its own link payments (docs/architecture.md, Payment links). The
  // PIX rail finds its own payments by their PIX columns (txid, expiry, the refunds a charge has had);
  // every change to them still goes through the payments service (the write check holds it).
  payments: ['modules/verify', 'modules/links/repo.ts', 'modules/pix'],
  // verify checks that each dispute's journals hold what the dispute says it holds.
  disputes: ['modules/verify'],
  // The scrape-time gauges: jobs due and parked, deliveries due, items set aside and still open.
  jobs: ['platform/metrics.ts'],
  set_aside_items: ['platform/metrics.ts'],
  // The outbox fans an event out to the enabled endpoints in the event's own statement (as it writes
  // their deliveries); verify checks every delivery against an event of its endpoint.
  webhook_endpoints: ['platform/outbox.ts', 'modules/verify'],
  webhook_deliveries: ['platform/metrics.ts', 'modules/verify'],
  // verify replays the postings against balances and recomputes the seal chain.
  ledger_accounts: ['modules/verify'],
  ledger_balances: ['modules/verify'],
  ledger_journals: ['modules/verify'],
  ledger_postings: ['modules/verify'],
  // verify checks each MED return's postings against what its party still owes of it.
  pix_med_returns: ['modules/verify'],
  // verify sets a paid due-date charge's payment beside the amount recorded as due, and each paid
  // subscription cycle beside its payment.
  pix_due_charges: ['modules/verify'],
  subscription_cycles: ['modules/verify'],
};

/** The tables a file's SQL writes. */
function tablesWritten(text: string): string[] {
  // An optional schema before the table; an optional alias between an UPDATE's table and SET.
  const writes =
    /\bINSERT\s+INTO\s+(?:[a-z_]+\.)?([a-z_]+)[\s(]|\bUPDATE\s+(?:[a-z_]+\.)?([a-z_]+)(?:\s+(?:AS\s+)?[a-z_]+)?\s+SET\b|\bDELETE\s+FROM\s+(?:[a-z_]+\.)?([a-z_]+)\b/g;
  return [...text.matchAll(writes)].map((match) => (match[1] ?? match[2] ?? match[3])!);
}

/**
 * The declared tables a file's SQL reads: every FROM and JOIN (a DELETE's own table is a write), and
 * each table of a comma-separated FROM list, in the public schema. Other names there (a CTE,
 * unnest(…), an alias's column in EXTRACT(… FROM j.col)) are not tables and are left out.
 */
function tablesRead(text: string): string[] {
  const item = String.raw`(?:ONLY\s+)?(?:public\.)?[a-z_]+\b(?!\s*\()(?:\s+(?:AS\s+)?[a-z_]+\b(?!\s*\())?`;
  const reads = new RegExp(String.raw`(\bDELETE\s+)?\b(?:FROM|JOIN)\s+(${item}(?:\s*,\s*${item})*)`, 'g');
  return [...text.matchAll(reads)]
    .filter((match) => !match[1])
    .flatMap((match) => match[2]!.split(','))
    .map((entry) => /^(?:ONLY\s+)?(?:public\.)?([a-z_]+)/.exec(entry.trim())![1]!)
    .filter((table) => Object.hasOwn(TABLE_WRITERS, table));
}

interface Source {
  file: string;
  text: string;
}
const read = (file: string): Source => ({ file, text: readFileSync(file, 'utf8') });

function importViolations(sources: Source[]): string[] {
  const problems: string[] = [];
  for (const { file, text } of sources) {
    const from = rel(file);
    for (const target of importsOf(file, text)) {
      const [mine, theirs] = [moduleOf(from), moduleOf(target)];
      if (theirs && mine !== theirs && !PUBLIC_FILES.test(target)) {
        problems.push(`${from} imports ${target}: call that module's service`);
      }
      if (/^(providers)\//.test(from) && /^(modules|flows)\//.test(target)) {
        problems.push(`${from} imports ${target}: providers never import modules`);
      }
      if (/^(ledger|platform|db)\//.test(from) && /^(modules|flows)\//.test(target)) {
        problems.push(`${from} imports ${target}: the core never imports a module`);
      }
    }
  }
  return problems;
}

function writeViolations(sources: Source[]): string[] {
  const problems: string[] = [];
  for (const { file, text } of sources) {
    const from = rel(file);
    for (const table of tablesWritten(text)) {
      const writers = TABLE_WRITERS[table];
      if (!writers) problems.push(`${from} writes ${table}, which has no declared writer`);
      else if (!writers.some((writer) => from === writer || from.startsWith(`${writer}/`))) {
        problems.push(`${from} writes ${table}, a table of ${writers.join(' or ')}`);
      }
    }
  }
  return problems;
}

const within = (file: string, owners: string[]) =>
  owners.some((owner) => file === owner || file.startsWith(`${owner}/`));

function readViolations(sources: Source[]): string[] {
  const problems = new Set<string>();
  for (const { file, text } of sources) {
    const from = rel(file);
    for (const table of tablesRead(text)) {
      const writers = TABLE_WRITERS[table]!;
      if (!within(from, [...writers, ...(TABLE_READERS[table] ?? [])])) {
        problems.add(`${from} reads ${table}, a table of ${writers.join(' or ')}`);
      }
    }
  }
  return [...problems];
}

function cycles(sources: Source[]): string[][] {
  const graph = new Map(sources.map(({ file, text }) => [rel(file), importsOf(file, text)]));
  const found: string[][] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (node: string, trail: string[]) => {
    if (state.get(node) === 'done') return;
    if (state.get(node) === 'open') {
      found.push([...trail.slice(trail.indexOf(node)), node]);
      return;
    }
    state.set(node, 'open');
    for (const next of graph.get(node) ?? []) visit(next, [...trail, node]);
    state.set(node, 'done');
  };
  for (const node of graph.keys()) visit(node, []);
  return found;
}

describe('boundaries', () => {
  const sources = sourceFiles(SRC).map(read);

  it('a module imports another module only through its public files; providers and the core import no module', () => {
    expect(importViolations(sources)).toEqual([]);
  });

  it('every table is written only by its owner', () => {
    expect(writeViolations(sources)).toEqual([]);
  });

  it('every table is read only by its owner and the readers named with their reason', () => {
    expect(readViolations(sources)).toEqual([]);
  });

  it('src has no import cycle', () => {
    expect(cycles(sources)).toEqual([]);
  });

  it('the checks catch what they are for', () => {
    const pix = (name: string, text: string) => ({ file: path.join(SRC, 'modules/pix', name), text });
    expect(importViolations([pix('a.ts', "import { findPaymentRow } from '../payments/repo.ts';")])).toEqual([
      "modules/pix/a.ts imports modules/payments/repo.ts: call that module's service",
    ]);
    expect(importViolations([pix('b.ts', "import { getPayment } from '../payments/service.ts';")])).toEqual(
      [],
    );
    expect(writeViolations([pix('c.ts', "tx.query(`UPDATE payments SET status = 'x'`)")])).toEqual([
      'modules/pix/c.ts writes payments, a table of modules/payments',
    ]);
    const provider = {
      file: path.join(SRC, 'providers/pix/d.ts'),
      text: "import '../../modules/pix/keys.ts';",
    };
    expect(importViolations([provider])).toHaveLength(2);
    expect(importViolations([pix('g.ts', 'const repo = await import("../payments/repo.ts");')])).toHaveLength(
      1,
    );
    expect(writeViolations([pix('h.ts', "tx.query(`UPDATE payments p SET status = 'x'`)")])).toHaveLength(1);
    expect(
      writeViolations([pix('i.ts', 'tx.query(`INSERT INTO public.payments (id) VALUES ($1)`)')]),
    ).toHaveLength(1);
    expect(readViolations([pix('j.ts', 'tx.query(`SELECT id FROM wallets w WHERE w.id = $1`)')])).toEqual([
      'modules/pix/j.ts reads wallets, a table of modules/wallets',
    ]);
    expect(
      readViolations([
        pix('k.ts', 'q.query(`SELECT 1 FROM settlement_keys s JOIN rfq_quotes q ON q.id = s.id`)'),
      ]),
    ).toEqual(['modules/pix/k.ts reads rfq_quotes, a table of modules/rfq']);
    expect(
      readViolations([
        pix('l.ts', 'q.query(`UPDATE payments SET x = 1 WHERE EXISTS (SELECT 1 FROM kms_keys)`)'),
      ]),
    ).toEqual(['modules/pix/l.ts reads kms_keys, a table of providers/kms']);
    expect(
      readViolations([pix('m.ts', 'q.query(`SELECT 1 FROM fee_schedules f, public.wallets w`)')]),
    ).toEqual(['modules/pix/m.ts reads wallets, a table of modules/wallets']);
    // A DELETE's own table is the write check's; unnest(…) and EXTRACT(… FROM col) read no table.
    expect(
      readViolations([
        pix(
          'n.ts',
          'q.query(`DELETE FROM wallets WHERE id = ANY(SELECT id FROM unnest($1::uuid[]) AS u(id))`)',
        ),
        pix('o.ts', 'q.query(`SELECT EXTRACT(EPOCH FROM j.wallets) FROM settlement_keys j`)'),
      ]),
    ).toEqual([]);
    // A named reader passes; the same read from another file of its module does not.
    const links = (name: string) => ({
      file: path.join(SRC, 'modules/links', name),
      text: 'q.query(`SELECT 1 FROM payment_link_payments c JOIN payments p ON p.id = c.payment_id`)',
    });
    expect(readViolations([links('repo.ts')])).toEqual([]);
    expect(readViolations([links('service.ts')])).toEqual([
      'modules/links/service.ts reads payments, a table of modules/payments',
    ]);
    const loop = [pix('e.ts', "import { f } from './f.ts';"), pix('f.ts', "import { e } from './e.ts';")];
    expect(cycles(loop)).toHaveLength(1);
  });
});
