/**
 * What a long piece of work is doing and how far along it is, for the person waiting on it: a bar
 * redrawn on one line when the stream is a terminal, plain lines otherwise (a log file, a CI job, a
 * pipe). It writes to stderr by default, so a command's stdout (a report, --json) stays readable by
 * a program.
 */

/** One task: its steps, then its end. */
export interface Progress {
  /** The next step starts; `item` says what it is. The steps before it count as done (the bar). */
  step(item: string): void;
  /** The task is over; `summary` says what it came to. */
  done(summary: string): void;
}

export interface ProgressReporter {
  /** A task of `total` steps (undefined: not known ahead), named by `label` on every line. */
  task(label: string, total?: number): Progress;
}

/** Where progress is written: a stream that may be a terminal. */
export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

const BAR_WIDTH = 24;
// Erase the line and return to its start (ECMA-48 EL, "erase in line", mode 2), then the new text.
const REDRAW = '\x1b[2K\r';

/** Nothing written: for callers with nobody watching (tests, library use). */
export const SILENT: ProgressReporter = { task: () => ({ step() {}, done() {} }) };

const counted = (done: number, total: number | undefined) =>
  total === undefined ? `${done}` : `${done}/${total}`;

function bar(done: number, total: number): string {
  const filled = total === 0 ? BAR_WIDTH : Math.min(BAR_WIDTH, Math.round((done / total) * BAR_WIDTH));
  return `[${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}]`;
}

/** A terminal line no wider than the terminal, so a redraw never wraps onto a second line. */
const fitted = (text: string, columns: number | undefined) =>
  columns && text.length >= columns ? `${text.slice(0, Math.max(0, columns - 2))}…` : text;

/** Progress on `stream`: a redrawn bar on a terminal, else a line per step. */
export function progressTo(stream: ProgressStream = process.stderr): ProgressReporter {
  return {
    task(label, total) {
      let started = 0;
      if (!stream.isTTY)
        return {
          step: (item) => void stream.write(`${label}: ${counted(++started, total)} ${item}\n`),
          done: (summary) => void stream.write(`${label}: ${summary}\n`),
        };
      return {
        step(item) {
          const done = started++;
          const gauge = total === undefined ? '' : `${bar(done, total)} `;
          const line = `${label} ${gauge}${counted(started, total)} ${item}`;
          stream.write(`${REDRAW}${fitted(line, stream.columns)}`);
        },
        done: (summary) => void stream.write(`${REDRAW}${label}: ${summary}\n`),
      };
    },
  };
}
