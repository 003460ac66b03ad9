/**
 * dispute.deadline_approaching: 48 h, 24 h and 6 h before an open dispute's deadline, each once. A
 * dispute that reaches several at once (opened with 20 h left, a worker that was down) gets one event
 * for the nearest and the farther ones count as sent: a receiver is told once that time is short, not
 * three times in a row. A dispute defended (under_review) or closed is told nothing more.
 */
import type { Deps, Environment } from '../../platform/context.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import { sandboxClocksAhead } from '../test-clock/index.ts';
import { type DisputeRow, disputesNearDeadline, markNoticesSent } from './repo.ts';
import { DEADLINE_NOTICES, type DeadlineNotice } from './schemas.ts';
import { disputeView } from './view.ts';

const HOUR_MS = 3600_000;
const NOTICE_HOURS: Record<DeadlineNotice, number> = { '48h': 48, '24h': 24, '6h': 6 };
const ROUND = 100;

/** The notices due `now` for a deadline and not yet sent, farthest first. Pure. */
export function noticesDue(deadline: Date, now: Date, sent: readonly DeadlineNotice[]): DeadlineNotice[] {
  const left = deadline.getTime() - now.getTime();
  if (left <= 0) return [];
  return DEADLINE_NOTICES.filter(
    (notice) => left <= NOTICE_HOURS[notice] * HOUR_MS && !sent.includes(notice),
  );
}

/** Sends the notices due to the rows, each in its own transaction; returns how many it sent. */
async function notify(deps: Deps, rows: readonly DisputeRow[], now: Date): Promise<number> {
  let sent = 0;
  for (const row of rows) {
    const due = noticesDue(row.deadline_at, now, row.notices_sent);
    if (due.length === 0) continue;
    const told = await deps.db.transaction(async (tx) => {
      const marked = await markNoticesSent(tx, row, due, deps.clock.now());
      if (!marked) return false;
      await emitEvent(tx, {
        workspaceId: row.workspace_id,
        environment: row.environment,
        type: 'dispute.deadline_approaching',
        object: disputeView(marked),
      });
      return true;
    });
    if (told) sent++;
  }
  return sent;
}

const near = (now: Date) => ({ after: now, until: new Date(now.getTime() + 48 * HOUR_MS) });

/**
 * Every open dispute near its deadline, a page at a time: the nearest ones, told already, must not
 * keep a farther one from its notice. `told` leaves out the rows another round tells.
 */
async function notifyWindow(
  deps: Deps,
  environment: Environment,
  window: { after: Date; until: Date; workspaceId?: string },
  now: Date,
  skip: (row: DisputeRow) => boolean = () => false,
): Promise<number> {
  let sent = 0;
  let from: { deadline: Date; id: string } | undefined;
  for (;;) {
    const rows = await disputesNearDeadline(deps.db, environment, window, ROUND, from);
    sent += await notify(
      deps,
      rows.filter((row) => !skip(row)),
      now,
    );
    if (rows.length < ROUND) return sent;
    const last = rows[rows.length - 1]!;
    from = { deadline: last.deadline_at, id: last.id };
  }
}

/**
 * Live and every sandbox on real time first; then each workspace whose sandbox clock runs ahead, on
 * its own clock (a sandbox clock never runs behind, so its round only adds deadlines).
 */
async function noticeRounds(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const clocks = await sandboxClocksAhead(deps.db, deps.clock);
  const ahead = new Set(clocks.map((entry) => entry.workspaceId));
  let sent = 0;
  for (const environment of ['live', 'sandbox'] as const) {
    const onOwnClock = (row: DisputeRow) => environment === 'sandbox' && ahead.has(row.workspace_id);
    sent += await notifyWindow(deps, environment, near(now), now, onOwnClock);
  }
  for (const { workspaceId, clock } of clocks) {
    const then = clock.now();
    sent += await notifyWindow(deps, 'sandbox', { ...near(then), workspaceId }, then);
  }
  return sent;
}

/** One round over both environments; returns how many notices it sent. */
export function sendDeadlineNotices(deps: Deps): Promise<number> {
  return noticeRounds(deps);
}

export const disputeDeadlineNotices: BackgroundTask = {
  name: 'dispute-deadline-notices',
  intervalMs: 60_000,
  run: sendDeadlineNotices,
};
