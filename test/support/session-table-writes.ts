/**
 * Finds the statements that change the tables the credential cache serves sessions and memberships
 * from (sessions, users, workspace_members, workspaces), for the guard test that has each reviewed.
 * One entry per statement, repeats kept: a second `UPDATE sessions SET revoked_at` in a file (a
 * "log out everywhere" beside logout) is a new write to review, not the one already listed.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const TABLE = String.raw`(?:\w+\.)?"?(sessions|users|workspace_members|workspaces)"?`;
const AFTER = String.raw`(?![\w."])`;

/** The statements that change rows, each with its table; a write's first SET column names it further. */
const WRITES: { kind: string; pattern: RegExp }[] = [
  {
    kind: 'UPDATE',
    // UPDATE [ONLY] [schema.]table [[AS] alias] SET column
    pattern: new RegExp(
      String.raw`\bUPDATE\s+(?:ONLY\s+)?${TABLE}${AFTER}(?:\s*\*)?(?:\s+(?:AS\s+)?(?!SET\b)\w+)?\s+SET\s+"?(\w+)`,
      'gi',
    ),
  },
  {
    kind: 'DELETE FROM',
    pattern: new RegExp(String.raw`\bDELETE\s+FROM\s+(?:ONLY\s+)?${TABLE}${AFTER}`, 'gi'),
  },
  {
    kind: 'MERGE INTO',
    pattern: new RegExp(String.raw`\bMERGE\s+INTO\s+(?:ONLY\s+)?${TABLE}${AFTER}`, 'gi'),
  },
  {
    // An upsert changes the existing row: INSERT INTO table … ON CONFLICT … DO UPDATE (one TS statement).
    kind: 'INSERT … DO UPDATE',
    pattern: new RegExp(
      String.raw`\bINSERT\s+INTO\s+${TABLE}${AFTER}[^;]*?\bON\s+CONFLICT\b[^;]*?\bDO\s+UPDATE\b`,
      'gi',
    ),
  },
  {
    // TRUNCATE [TABLE] [ONLY] a, b, … : every listed table counts.
    kind: 'TRUNCATE',
    pattern: /\bTRUNCATE\s+(?:TABLE\s+)?(?:ONLY\s+)?[\w."]+(?:\s*,\s*(?:ONLY\s+)?[\w."]+)*/gi,
  },
];

const CACHED = /^(?:\w+\.)?"?(sessions|users|workspace_members|workspaces)"?$/i;

/** Every write to a cached table in `source`, as `<kind> <table>[ SET <column>]`, repeats kept. */
export function sessionTableWrites(source: string): string[] {
  const found: { at: number; write: string }[] = [];
  for (const { kind, pattern } of WRITES) {
    for (const match of source.matchAll(pattern)) {
      if (kind === 'TRUNCATE') {
        const list = match[0].replace(/^TRUNCATE\s+(?:TABLE\s+)?/i, '');
        for (const name of list.split(',').map((item) => item.trim().replace(/^ONLY\s+/i, ''))) {
          const table = CACHED.exec(name)?.[1];
          if (table) found.push({ at: match.index, write: `TRUNCATE ${table.toLowerCase()}` });
        }
        continue;
      }
      const table = match[1]!.toLowerCase();
      const column = kind === 'UPDATE' ? ` SET ${match[2]!.toLowerCase()}` : '';
      found.push({ at: match.index, write: `${kind} ${table}${column}` });
    }
  }
  return found.sort((a, b) => a.at - b.at).map(({ write }) => write);
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return files(full);
    const source = /\.(ts|sql)$/.test(entry.name) && !entry.name.endsWith('.test.ts');
    return source ? [full] : [];
  });
}

/**
 * Every write under `root` (TypeScript and SQL, so migrations, which run at a deploy while older
 * processes still serve from their caches, count too) as `<file>: <write>`, sorted, repeats kept.
 */
export function sessionTableWritesUnder(root: string): string[] {
  return files(root)
    .flatMap((file) => {
      const name = path.relative(root, file).split(path.sep).join('/');
      return sessionTableWrites(readFileSync(file, 'utf8')).map((write) => `${name}: ${write}`);
    })
    .sort();
}
