/**
 * The sandbox test clock: a per-workspace offset that moves sandbox time ahead of real time.
 *
 * How another module uses it (through this index or service.ts):
 * - `nowFor(q, deps.clock, {workspaceId, environment})` or `sandboxNow(q, ctx)`: now for a workspace
 *   and environment. Live answers deps.clock.now() without reading anything; sandbox adds the offset.
 * - `clockFor(q, deps.clock, scope)`: the same as a Clock, for code that takes one.
 * - A sweep over records due by date (expiry, a subscription's next charge, a dispute's deadline)
 *   subscribes to "the clock advanced for workspace W" simply by reading sandbox now: it runs once
 *   with deps.clock and once per entry of `sandboxClocksAhead(q, deps.clock)` (the few workspaces
 *   whose clock runs ahead, each with its own Clock) for that workspace's sandbox records. There is
 *   no callback to register: an advance takes effect at the next round of each sweep, and a read that
 *   computes from the date (a due-date charge's amount due today) sees it at once.
 */
import { defineModule } from '../../platform/module.ts';
import advance from './routes/test-clock-advance.ts';
import get from './routes/test-clock-get.ts';

export { clockFor, nowFor, sandboxClocksAhead, sandboxNow } from './service.ts';

export default defineModule({
  name: 'test-clock',
  routes: [get, advance],
});
