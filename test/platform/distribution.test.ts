/**
 * The rule that lets the schema be distributed by workspace on Citus (docs/scaling.md): every table
 * has workspace_id in its primary key and in every unique constraint and unique index, or is listed
 * in docs/scaling.md as a reference/local table or as a known exception (with its plan).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { migrate } from '../../src/db/migrate.ts';
import { createTestDatabase } from '../support/database.ts';

const DOC = path.resolve(import.meta.dirname, '../../docs/scaling.md');

/** The table names in the first column of the markdown table under `heading`. */
function listedTables(doc: string, heading: string): string[] {
  const start = doc.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/scaling.md has no "## ${heading}" section`);
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/^\| `([a-z_0-9]+)` \|/gm)].map((match) => match[1]!);
}

interface KeyRow {
  table: string;
  name: string;
  kind: 'primary key' | 'unique constraint' | 'unique index';
  columns: string;
  has_workspace: boolean;
}

const db = await createTestDatabase();
afterAll(() => db.close());

it('every table keys by workspace_id, or docs/scaling.md lists it as reference, local or a known exception', async () => {
  await migrate(db);
  const doc = readFileSync(DOC, 'utf8');
  const reference = listedTables(doc, 'Reference and local tables');
  const exceptions = listedTables(doc, 'Known exceptions');
  const { rows: tables } = await db.query<{ name: string }>(
    `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') ORDER BY 1`,
  );
  const { rows: keys } = await db.query<KeyRow>(
    `SELECT c.relname AS table, i.relname AS name,
            CASE WHEN x.indisprimary THEN 'primary key'
                 WHEN con.oid IS NOT NULL THEN 'unique constraint' ELSE 'unique index' END AS kind,
            pg_get_indexdef(x.indexrelid) AS columns,
            EXISTS (SELECT 1 FROM unnest(x.indkey) k JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = k
                     WHERE a.attname = 'workspace_id') AS has_workspace
       FROM pg_index x JOIN pg_class c ON c.oid = x.indrelid JOIN pg_class i ON i.oid = x.indexrelid
       JOIN pg_namespace n ON n.oid = c.relnamespace
       LEFT JOIN pg_constraint con ON con.conindid = x.indexrelid AND con.contype = 'u'
      WHERE n.nspname = 'public' AND x.indisunique ORDER BY 1, 2`,
  );
  const names = new Set(tables.map((table) => table.name));
  const problems: string[] = [];
  for (const listed of [...reference, ...exceptions]) {
    if (!names.has(listed))
      problems.push(`docs/scaling.md lists table ${listed}, which no longer exists: remove its row.`);
  }
  for (const both of reference.filter((table) => exceptions.includes(table)))
    problems.push(
      `docs/scaling.md lists table ${both} both as reference/local and as a known exception: keep one.`,
    );
  for (const { name } of tables) {
    if (reference.includes(name)) continue;
    const own = keys.filter((key) => key.table === name);
    const broken = own.filter((key) => !key.has_workspace);
    if (!own.some((key) => key.kind === 'primary key'))
      broken.push({
        table: name,
        name: '(none)',
        kind: 'primary key',
        columns: 'none',
        has_workspace: false,
      });
    if (exceptions.includes(name)) {
      if (broken.length === 0)
        problems.push(
          `table ${name} now keys by workspace_id everywhere: remove it from "Known exceptions" in docs/scaling.md.`,
        );
      continue;
    }
    for (const key of broken)
      problems.push(
        `table ${name}: ${key.kind} ${key.name} lacks workspace_id (${key.columns}). Put workspace_id in it ` +
          `(e.g. PRIMARY KEY (workspace_id, id), UNIQUE (workspace_id, …)) in your migration; or, if ${name} ` +
          `is global data (not one tenant's), add a row for it under "## Reference and local tables" in ` +
          `docs/scaling.md saying why; or, if it is tenant data that cannot change now, a row under ` +
          `"## Known exceptions" with the reason and the plan.`,
      );
  }
  expect(problems, problems.join('\n')).toEqual([]);
});

it('every foreign key between tenant tables names workspace_id, and no tenant table is an exception any more', async () => {
  await migrate(db);
  const doc = readFileSync(DOC, 'utf8');
  const reference = listedTables(doc, 'Reference and local tables');
  expect(listedTables(doc, 'Known exceptions')).toEqual([]);
  // On a distributed database a foreign key between two distributed tables holds only within a
  // shard, so it must carry the distribution column; one to a reference table (workspaces, the slug
  // registry) holds on every node.
  const { rows } = await db.query<{
    table: string;
    target: string;
    definition: string;
    has_workspace: boolean;
  }>(
    `SELECT c.conrelid::regclass::text AS table, c.confrelid::regclass::text AS target,
            pg_get_constraintdef(c.oid) AS definition,
            EXISTS (SELECT 1 FROM unnest(c.conkey) k JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k
                     WHERE a.attname = 'workspace_id') AS has_workspace
       FROM pg_constraint c JOIN pg_namespace n ON n.oid = c.connamespace
      WHERE n.nspname = 'public' AND c.contype = 'f' ORDER BY 1, 3`,
  );
  const broken = rows
    .filter((row) => !reference.includes(row.table) && !reference.includes(row.target) && !row.has_workspace)
    .map((row) => `${row.table}: ${row.definition}`);
  expect(broken, 'foreign keys between tenant tables without workspace_id').toEqual([]);
});
