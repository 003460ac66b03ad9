/**
 * dispute.deadline_approaching: 48 h, 24 h and 6 h before an open dispute's deadline, each once. A
 * dispute that reaches several at once (opened with 20 h left, a worker that was down) gets one event
 * for the nearest and the farther ones count as sent: a receiver is told once that time is short, not
 * three times in a row. A dispute defended (under_review) or closed is told nothing more.
 */
import type { Deps, Environment } from '../../platform/context.ts';
import { emitEvent } from '../../platform/outbox.ts';
import type { BackgroundTask } from '../../platform/tasks.ts';
import { disputeNow } from './clock.ts';
import { disputesNearDeadline, markNoticesSent } from './repo.ts';
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

async function noticeRound(deps: Deps, environment: Environment): Promise<number> {
  // Live runs on one clock, so only deadlines within 48 h are read; a sandbox's clock may be its own,
  // never behind the service's, so a deadline the service's clock has passed is past there too.
  const after = deps.clock.now();
  const until = environment === 'live' ? new Date(after.getTime() + 48 * HOUR_MS) : null;
  const rows = await disputesNearDeadline(deps.db, environment, { after, until }, ROUND);
  let sent = 0;
  for (const row of rows) {
    const now = await disputeNow(deps, { workspaceId: row.workspace_id, environment });
    const due = noticesDue(row.deadline_at, now, row.notices_sent);
    if (due.length === 0) continue;
    const told = await deps.db.transaction(async (tx) => {
      const marked = await markNoticesSent(tx, row, due, deps.clock.now());
      if (!marked) return false;
      await emitEvent(tx, {
        workspaceId: row.workspace_id,
        environment,
        type: 'dispute.deadline_approaching',
        object: disputeView(marked),
      });
      return true;
    });
    if (told) sent++;
  }
  return sent;
}

/** One round over both environments; returns how many notices it sent. */
export async function sendDeadlineNotices(deps: Deps): Promise<number> {
  return (await noticeRound(deps, 'live')) + (await noticeRound(deps, 'sandbox'));
}

export const disputeDeadlineNotices: BackgroundTask = {
  name: 'dispute-deadline-notices',
  intervalMs: 60_000,
  run: sendDeadlineNotices,
};
