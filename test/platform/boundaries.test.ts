/**
 * The layout's rules, checked over the source (docs/architecture.md, "Boundaries"):
 * - a module imports another module only through its service (service.ts), schemas or
 *   manifest: never its repo, routes or internals;
 * - a module writes only its own tables (plus the exceptions named below);
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
  ledger_accounts: ['ledger'],
  ledger_balances: ['ledger'],
  ledger_journals: ['ledger'],
  ledger_postings: ['ledger'],
  ledger_seals: ['ledger'],
  ledger_seal_heads: ['ledger'],
  sandbox_pix_transfers: ['providers/pix'],
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

/** The tables a file's SQL writes. */
function tablesWritten(text: string): string[] {
  // An optional schema before the table; an optional alias between an UPDATE's table and SET.
  const writes =
    /\bINSERT\s+INTO\s+(?:[a-z_]+\.)?([a-z_]+)[\s(]|\bUPDATE\s+(?:[a-z_]+\.)?([a-z_]+)(?:\s+(?:AS\s+)?[a-z_]+)?\s+SET\b|\bDELETE\s+FROM\s+(?:[a-z_]+\.)?([a-z_]+)\b/g;
  return [...text.matchAll(writes)].map((match) => (match[1] ?? match[2] ?? match[3])!);
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
    const loop = [pix('e.ts', "import { f } from './f.ts';"), pix('f.ts', "import { e } from './e.ts';")];
    expect(cycles(loop)).toHaveLength(1);
  });
});
