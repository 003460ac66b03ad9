import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import type { Database } from '../db/types.ts';
import type { ProviderRegistry } from '../providers/registry.ts';
import type { Clock, Environment } from './environment.ts';
import type { Sealer } from './secrets.ts';

export { type Clock, type Environment, normalizeEnvironment, systemClock } from './environment.ts';

/** What every module's routes and services are given: no module reaches for globals. */
export interface Deps {
  config: Config;
  db: Database;
  clock: Clock;
  sealer: Sealer;
  providers: ProviderRegistry;
  /**
   * Counters every API process shares (rate limits, the login throttle), when REDIS_URL is set;
   * built unconnected (it connects on first use), closed by closeDeps.
   */
  redis?: Redis;
  /** The background tasks this process runs, when it runs any: /ready checks their heartbeat. */
  workers?: WorkerLiveness;
}

export interface WorkerLiveness {
  readonly taskCount: number;
  /** Names of the tasks whose loop has not beaten recently. */
  stalled(now?: number): string[];
}

/** Who is calling, for which workspace and environment; set by the authentication hook. */
export interface Caller {
  type: 'api_key' | 'session';
  /** The workspace the call acts on: the caller's own, or its sub-account when X-Subaccount-Id is sent. */
  workspaceId: string;
  /** The workspace the credential belongs to. */
  callerWorkspaceId: string;
  environment: Environment;
  /** Set for a party-scoped API key: the only party it may see or move money for. */
  partyId: string | null;
  apiKeyId?: string;
  userId?: string;
  /** A dashboard session whose user has 2FA on (crypto send then asks for X-OTP-Code). */
  twoFactor?: boolean;
  actingSubaccountId?: string;
}

/** How a route authenticates: see platform/auth/authenticate.ts. */
export type AuthMode = 'none' | 'user' | 'session' | 'workspace' | 'any';

/**
 * The kind of record a route's :id names. The shared auth suite uses it to check, on every such route,
 * that another workspace's record (and, for a party-scoped key, another party's) answers 404.
 */
export type RecordKind =
  | 'payment'
  | 'customer'
  | 'kyc_case'
  | 'subaccount'
  | 'quote'
  | 'wallet'
  | 'payment_link'
  | 'unassigned_pix'
  | 'dispute'
  | 'subscription';

/** One registered route, as the shared auth and OpenAPI tests see it. */
export interface RouteEntry {
  method: string;
  url: string;
  config: {
    auth?: AuthMode;
    subaccount?: boolean;
    moneyMoving?: boolean;
    groupCommit?: boolean;
    interleave?: boolean;
    sandboxOnly?: boolean;
    record?: RecordKind;
  };
  schema: { body?: unknown; querystring?: unknown; params?: unknown; response?: unknown; hide?: boolean };
}
