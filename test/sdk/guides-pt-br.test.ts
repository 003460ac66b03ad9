/**
 * The Portuguese guides (docs/guides/pt-BR) are translations of the English ones whose code blocks
 * are the English blocks byte for byte: only the English guides are run (guides.test.ts), so a
 * snippet that drifted here would be untested. No server: it reads files.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Block, blocksOf, GUIDES_DIR, guideFiles } from './snippets.ts';

const PT_BR = 'pt-BR';
const PT_BR_DIR = path.join(GUIDES_DIR, PT_BR);
const translations = () =>
  readdirSync(PT_BR_DIR)
    .filter((name) => name.endsWith('.md'))
    .sort();

/** The first lines where two blocks part, a few of each, as `-` English and `+` Portuguese. */
function shortDiff(english: Block | undefined, translated: Block | undefined): string {
  const a = english ? [`\`\`\`${english.language}`, ...english.code.split('\n')] : ['(no block)'];
  const b = translated ? [`\`\`\`${translated.language}`, ...translated.code.split('\n')] : ['(no block)'];
  let first = 0;
  while (first < a.length && a[first] === b[first]) first++;
  const show = (lines: string[], sign: string) =>
    lines.slice(first, first + 3).map((line) => `${sign} ${line}`);
  return [`at line ${first + 1} of the block:`, ...show(a, '-'), ...show(b, '+')].join('\n');
}

/** Each block of the translation that is not the English guide's, as "block N: diff". */
function blockDifferences(guide: string): string[] {
  const english = blocksOf(guide);
  const translated = blocksOf(`${PT_BR}/${guide}`);
  const differences: string[] = [];
  for (let i = 0; i < Math.max(english.length, translated.length); i++) {
    const a = english[i];
    const b = translated[i];
    if (a && b && a.language === b.language && a.run === b.run && a.code === b.code) continue;
    const where = b ? `pt-BR line ${b.line}` : 'missing in pt-BR';
    differences.push(`${guide} block ${i} (${where}) differs from the English guide's\n${shortDiff(a, b)}`);
  }
  return differences;
}

/** Relative links outside code blocks whose file does not exist, from docs/guides/pt-BR. */
function brokenLinks(guide: string): string[] {
  const file = path.join(PT_BR_DIR, guide);
  const prose = readFileSync(file, 'utf8').replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '');
  return [...prose.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1]!)
    .filter((target) => !/^([a-z]+:|#)/.test(target))
    .filter((target) => !existsSync(path.resolve(path.dirname(file), target.replace(/#.*$/, ''))))
    .map((target) => `${PT_BR}/${guide} links ${target}, which does not exist`);
}

/** The first code span of each table row: the error codes, fields or statuses a table is about. */
const tableKeys = (file: string) =>
  [...readFileSync(path.join(GUIDES_DIR, file), 'utf8').matchAll(/^\| `([^`]+)`/gm)].map((row) => row[1]!);

describe('the Portuguese guides', () => {
  it('every English guide has a pt-BR translation, and every translation an English guide', () => {
    const english = guideFiles();
    expect(english.length).toBeGreaterThan(0);
    expect(english.filter((name) => !translations().includes(name))).toEqual([]);
    expect(translations().filter((name) => !english.includes(name))).toEqual([]);
  });

  it.each(guideFiles())('%s in pt-BR has the English code blocks, in order', (guide) => {
    if (!existsSync(path.join(PT_BR_DIR, guide))) return; // reported by the test above
    expect(blockDifferences(guide).join('\n\n')).toBe('');
  });

  // A code added to the generated errors table (or a row to any table) needs its translation too.
  it.each(guideFiles())('%s in pt-BR has the rows of its tables, in order', (guide) => {
    if (!existsSync(path.join(PT_BR_DIR, guide))) return;
    expect(tableKeys(`${PT_BR}/${guide}`)).toEqual(tableKeys(guide));
  });

  it.each(translations())('pt-BR/%s links only to files that exist', (guide) => {
    expect(brokenLinks(guide)).toEqual([]);
  });

  it('guides.test.ts runs only the English blocks', () => {
    expect(guideFiles().some((name) => name.includes(PT_BR))).toBe(false);
  });
});
