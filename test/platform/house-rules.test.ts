/**
 * The house rules a tool can check (CONTRIBUTING.md, "Code"), over every source file of src/:
 * - a function whose body spans more than MAX_FUNCTION_LINES lines says why it stays whole, in a
 *   comment above it that starts the reason with "Over 70 lines:";
 * - a comment gives a reason, never the process that brought it: no "issue 12", "review #4" or
 *   "review round".
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(import.meta.dirname, '../../src');

/** TigerBeetle's bound: a function that fits on a screen can be read whole. */
const MAX_FUNCTION_LINES = 70;

/** The words that open the reason a long function stays whole, followed by that reason. */
const WHY_LONG = /Over 70 lines:\s*\S+(\s+\S+){3}/;

/** Comments that name the process (an issue, a review) instead of the reason. */
const PROCESS_HISTORY = [/\b(issue|review)\s*#?\s*\d+/i, /\breview round/i];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

const rel = (file: string) => path.relative(SRC, file).split(path.sep).join('/');

function parse(file: string, text = readFileSync(file, 'utf8')): ts.SourceFile {
  return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

const lineOf = (source: ts.SourceFile, pos: number) => source.getLineAndCharacterOfPosition(pos).line + 1;

/** A function's name as a reader finds it: its own, or the name it is assigned to. */
function nameOf(node: ts.FunctionLikeDeclaration): string | undefined {
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if (
    ts.isVariableDeclaration(parent) ||
    ts.isPropertyAssignment(parent) ||
    ts.isPropertyDeclaration(parent)
  ) {
    return parent.name.getText();
  }
  if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken) {
    return parent.left.getText();
  }
  if (ts.isExportAssignment(parent)) return 'default';
  return undefined;
}

/**
 * The comments that introduce a function: those before it and before each node that holds it, up
 * to its statement or member (`const f = () => …`, `key: () => …`, `export default fp(async …)`).
 */
function leadingComments(node: ts.Node, source: ts.SourceFile): string {
  const texts: string[] = [];
  for (let at: ts.Node = node; !ts.isSourceFile(at); at = at.parent) {
    for (const range of ts.getLeadingCommentRanges(source.text, at.getFullStart()) ?? []) {
      texts.push(source.text.slice(range.pos, range.end));
    }
    if (ts.isStatement(at) || ts.isClassElement(at) || ts.isObjectLiteralElement(at)) break;
  }
  return texts.join('\n');
}

interface LongFunction {
  where: string;
  lines: number;
}

/**
 * Every function of a file whose body is over the bound and carries no reason: named functions
 * (declarations, methods, accessors, constructors, arrows and function expressions assigned to a
 * name or a property) wherever they are, and unnamed ones (callbacks) that no checked function
 * holds, such as a plugin passed to a call at the top of a file.
 */
function longFunctionsOf(source: ts.SourceFile): LongFunction[] {
  const found: LongFunction[] = [];
  const visit = (node: ts.Node, insideFunction: boolean): void => {
    let inside = insideFunction;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const fn = node as ts.FunctionLikeDeclaration;
      const name = nameOf(fn);
      if (name !== undefined || !insideFunction) {
        inside = true;
        const body = fn.body!;
        const lines = lineOf(source, body.getEnd()) - lineOf(source, body.getStart()) + 1;
        if (lines > MAX_FUNCTION_LINES && !WHY_LONG.test(leadingComments(fn, source))) {
          const where = `${rel(source.fileName)}:${lineOf(source, fn.getStart())} ${name ?? '(callback)'}`;
          found.push({ where, lines });
        }
      }
    }
    ts.forEachChild(node, (child) => visit(child, inside));
  };
  visit(source, false);
  return found;
}

/** Every comment of a file, each once, with the line it starts on. */
function commentsOf(source: ts.SourceFile): { line: number; text: string }[] {
  const seen = new Map<number, { line: number; text: string }>();
  const visit = (node: ts.Node): void => {
    const ranges = [
      ...(ts.getLeadingCommentRanges(source.text, node.pos) ?? []),
      ...(ts.getTrailingCommentRanges(source.text, node.end) ?? []),
    ];
    for (const range of ranges) {
      seen.set(range.pos, { line: lineOf(source, range.pos), text: source.text.slice(range.pos, range.end) });
    }
    for (const child of node.getChildren(source)) visit(child);
  };
  visit(source);
  return [...seen.values()];
}

function historyCommentsOf(source: ts.SourceFile): string[] {
  return commentsOf(source)
    .filter((comment) => PROCESS_HISTORY.some((pattern) => pattern.test(comment.text)))
    .map((comment) => `${rel(source.fileName)}:${comment.line} ${comment.text.split('\n')[0]!.trim()}`);
}

const sources = sourceFiles(SRC).map((file) => parse(file));

describe('house rules', () => {
  it(`no function in src is over ${MAX_FUNCTION_LINES} lines without a comment saying why`, () => {
    const long = sources.flatMap(longFunctionsOf).map((fn) => `${fn.where} (${fn.lines} lines)`);
    expect(long, 'split these into named steps, or say above each "Over 70 lines: <why>"').toEqual([]);
  });

  it('comments in src give reasons, not the issue or review that brought them', () => {
    expect(sources.flatMap(historyCommentsOf)).toEqual([]);
  });

  it('each check catches what it is for', () => {
    const long = ['x', ...Array.from({ length: MAX_FUNCTION_LINES }, () => 'x')].join(';\n');
    const plant = (text: string) => parse(path.join(SRC, 'planted.ts'), text);
    const found = (text: string) => longFunctionsOf(plant(text)).map((fn) => fn.where);
    expect(found(`function a() {\n${long}\n}`)).toEqual(['planted.ts:1 a']);
    expect(found(`const b = async () => {\n${long}\n};`)).toEqual(['planted.ts:1 b']);
    expect(found(`const o = {\n  c() {\n${long}\n  },\n};`)).toEqual(['planted.ts:2 c']);
    expect(found(`class K {\n  d() {\n${long}\n  }\n}`)).toEqual(['planted.ts:2 d']);
    expect(found(`export default fp(async (app) => {\n${long}\n});`)).toEqual(['planted.ts:1 (callback)']);
    expect(found(`function e() {\n  return 1;\n}`)).toEqual([]);
    const why = '/**\n * Does e.\n * Over 70 lines: one transaction whose steps share the locked row.\n */\n';
    expect(found(`${why}function e() {\n${long}\n}`)).toEqual([]);
    expect(found(`${why}export const f = () => {\n${long}\n};`)).toEqual([]);
    expect(found(`// Over 70 lines.\nfunction g() {\n${long}\n}`)).toEqual(['planted.ts:2 g']);

    const history = (text: string) => historyCommentsOf(plant(text));
    expect(history('// Fixed in issue 12.\nconst a = 1;')).toHaveLength(1);
    expect(history('const a = 1; /* see Issue #14 */')).toHaveLength(1);
    expect(history('function f() {\n  return 1;\n  // from review round 3\n}')).toHaveLength(1);
    expect(history("// A session cookie lasts 12 hours.\nconst review = 'issue 12';")).toEqual([]);
  });
});
