import 'fastify';
import type { Tx } from '../db/types.ts';
import type { SessionUser } from './auth/authenticate.ts';
import type { LoginThrottle } from './auth/login-throttle.ts';
import type { AuthMode, Caller, RecordKind, RouteEntry } from './context.ts';
import type { ErrorCode } from './errors.ts';
import type { KeyOwner } from './idempotency.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route with its config and schema: the shared auth and OpenAPI tests walk it. */
    routeCatalog: RouteEntry[];
    /** Failed logins per account and per address (src/platform/auth/login-throttle.ts). */
    loginThrottle: LoginThrottle;
    /** Error codes routes answered outside their declared lists (recorded in tests only). */
    undeclaredErrors: string[];
  }
  interface FastifyContextConfig {
    auth?: AuthMode;
    /**
     * The route accepts X-Subaccount-Id (spec rule 9): set on the spec's acting groups only (balances,
     * wallets, transactions/payments, statement, crypto, pix, payment-links, rfq); the shared auth suite
     * checks the flag against the route's path.
     */
    subaccount?: boolean;
    /** What the route's :id names (see RecordKind). */
    record?: RecordKind;
    /** A sandbox test helper: a live path answers 404. */
    sandboxOnly?: boolean;
    /** A money-moving create: its idempotency record never expires. */
    moneyMoving?: boolean;
    /** Its write may share a transaction with concurrent ones of the workspace (src/db/group-commit.ts). */
    groupCommit?: boolean;
    /**
     * Its group-committed write may run side by side with the batch's others, without a savepoint: it
     * reads nothing they change before it writes, or calls isolate() first (src/db/group-commit.ts).
     */
    interleave?: boolean;
    /**
     * The error codes the route's handler and services can throw, beside the common ones of its kind
     * (src/platform/route-errors.ts); the document lists them and a test hook checks them.
     */
    errors?: readonly ErrorCode[];
  }
  interface FastifyRequest {
    caller: Caller | null;
    /** The logged-in owner on routes whose auth mode is 'user'. */
    sessionUser: SessionUser | null;
    /**
     * Runs a write in one transaction, with the Idempotency-Key record stored in that same transaction.
     * `keyOwner` names whose keys it is among on a route no caller stands behind (the public checkout).
     */
    write<T>(fn: (tx: Tx) => Promise<T>, options?: { keyOwner?: KeyOwner }): Promise<T>;
    idempotencyReplayed: boolean;
    usedWrite: boolean;
  }
}
