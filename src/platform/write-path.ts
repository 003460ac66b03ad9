import type { FastifyRequest } from 'fastify';
import type { Tx } from '../db/types.ts';
import { workspaceGroupCommit } from '../ledger/gate.ts';
import type { Deps } from './context.ts';
import { type KeyOwner, runIdempotentWrite, type WriteRunner } from './idempotency.ts';

/**
 * request.write: one transaction per request, with its Idempotency-Key record. A route marked
 * `groupCommit` (a money-moving create whose function only touches the database) instead shares a
 * transaction with the concurrent writes of the same workspace, each in its own savepoint
 * (src/db/group-commit.ts); its caller is answered once that shared transaction has committed.
 */
export function writePath(deps: Deps) {
  const lanes = deps.config.groupCommitLanes;
  const group = lanes > 0 ? workspaceGroupCommit(deps.db, { lanes }) : undefined;
  return function write<T>(
    this: FastifyRequest,
    fn: (tx: Tx) => Promise<T>,
    options: { keyOwner?: KeyOwner } = {},
  ): Promise<T> {
    this.usedWrite = true;
    if (options.keyOwner) return runIdempotentWrite(deps, this, fn, undefined, false, options.keyOwner);
    const workspaceId = this.caller?.workspaceId;
    if (!group || !workspaceId || this.routeOptions.config.groupCommit !== true) {
      return runIdempotentWrite(deps, this, fn);
    }
    const interleave = this.routeOptions.config.interleave === true;
    const run: WriteRunner = (write, options) => group.run(workspaceId, write, { ...options, interleave });
    return runIdempotentWrite(deps, this, fn, run, true);
  };
}
