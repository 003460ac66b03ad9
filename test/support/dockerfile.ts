import { readFileSync } from 'node:fs';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface Instruction {
  op: string;
  args: string;
}

/** The Dockerfile as instructions (continuation lines joined, comments dropped), grouped by stage. */
export function dockerStages(): Instruction[][] {
  const text = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stages: Instruction[][] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (!trimmed || trimmed.startsWith('#')) continue;
    const [op, ...rest] = trimmed.split(/\s+/);
    const instruction = { op: op!.toUpperCase(), args: rest.join(' ') };
    if (instruction.op === 'FROM') stages.push([]);
    stages.at(-1)!.push(instruction);
  }
  return stages;
}

/** What a stage's COPY instructions take from the build context (not from another stage): source paths. */
export function copiedFromContext(stage: Instruction[]): string[] {
  return stage
    .filter((instruction) => instruction.op === 'COPY' && !/--from=/.test(instruction.args))
    .flatMap((instruction) => {
      const parts = instruction.args.split(/\s+/).filter((part) => !part.startsWith('--'));
      return parts.slice(0, -1).map((source) => source.replace(/\/+$/, ''));
    });
}

/** Whether .dockerignore leaves `file` (relative to the context) out: the last matching line decides. */
export function dockerIgnored(file: string): boolean {
  let ignored = false;
  for (const raw of readFileSync(path.join(ROOT, '.dockerignore'), 'utf8').split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const negated = line.startsWith('!');
    const pattern = (negated ? line.slice(1) : line).replace(/^\*\*\//, '');
    const matches = file === pattern || file.startsWith(`${pattern}/`) || file.includes(`/${pattern}/`);
    if (matches) ignored = !negated;
  }
  return ignored;
}
