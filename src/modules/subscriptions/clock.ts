/**
 * "Now" for a workspace's subscriptions. Sandbox subscriptions run on the workspace's sandbox test
 * clock (an advance of twelve months runs twelve cycles); live ones on real time. Every date decision
 * of this module goes through here, so there is one clock, the test-clock module's.
 */
import type { Queryable } from '../../db/types.ts';
import type { Deps } from '../../platform/context.ts';
import { nowFor } from '../test-clock/service.ts';
import type { Scope } from './repo.ts';

export type NowFor = (q: Queryable, deps: Deps, scope: Scope) => Promise<Date>;

export const subscriptionNow: NowFor = (q, deps, scope) => nowFor(q, deps.clock, scope);
