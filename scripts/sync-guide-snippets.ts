/**
 * Copies the code blocks of each English guide (docs/guides/*.md) into its Portuguese translation
 * (docs/guides/pt-BR/*.md), in order, leaving the translated prose alone. The snippets are tested
 * only in the English guides, so the translations must carry them byte for byte.
 *
 *   npx tsx scripts/sync-guide-snippets.ts            every guide
 *   npx tsx scripts/sync-guide-snippets.ts pix.md     some of them
 *
 * A translation with a different number of blocks is not touched (its prose needs a translator:
 * a block was added or removed); the script names it and exits 1.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const GUIDES_DIR = path.resolve(import.meta.dirname, '../docs/guides');
export const PT_BR_DIR = path.join(GUIDES_DIR, 'pt-BR');

/** The fenced blocks of a guide's lines, as [first line, closing line] (the fences included). */
export function fencedRanges(lines: string[]): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.startsWith('```')) continue;
    const start = i;
    for (i++; i < lines.length && lines[i] !== '```'; i++);
    ranges.push([start, i]);
  }
  return ranges;
}

/** The translation with the English guide's blocks in place of its own, or why it cannot be. */
export function withEnglishBlocks(english: string, translated: string): string | Error {
  const from = english.split('\n');
  const into = translated.split('\n');
  const source = fencedRanges(from);
  const target = fencedRanges(into);
  if (source.length !== target.length) {
    return new Error(`${target.length} code blocks, the English guide has ${source.length}`);
  }
  // From the last block back, so the earlier ranges stay where they are.
  for (let b = target.length - 1; b >= 0; b--) {
    const [start, end] = target[b]!;
    const [fromStart, fromEnd] = source[b]!;
    into.splice(start, end - start + 1, ...from.slice(fromStart, fromEnd + 1));
  }
  return into.join('\n');
}

function main(names: string[]): number {
  const guides = names.length
    ? names.map((name) => path.basename(name))
    : readdirSync(GUIDES_DIR).filter((name) => name.endsWith('.md'));
  let failed = 0;
  for (const name of guides.sort()) {
    const translation = path.join(PT_BR_DIR, name);
    if (!existsSync(translation)) {
      console.log(`${name}: no pt-BR translation yet (docs/guides/pt-BR/${name})`);
      failed++;
      continue;
    }
    const before = readFileSync(translation, 'utf8');
    const after = withEnglishBlocks(readFileSync(path.join(GUIDES_DIR, name), 'utf8'), before);
    if (after instanceof Error) {
      console.log(`${name}: not synced: the translation has ${after.message}`);
      failed++;
    } else if (after !== before) {
      writeFileSync(translation, after);
      console.log(`${name}: code blocks updated; check the prose around them still says the same`);
    }
  }
  return failed ? 1 : 0;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exit(main(process.argv.slice(2)));
