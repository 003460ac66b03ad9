/**
 * Credentials kept in process memory so a request spends no round trip on them: API keys by hash,
 * dashboard sessions by `session:<hash>` and a session user's membership of a workspace by
 * `member:<user>:<workspace>` (authenticate.ts). One cache and one channel for all of them.
 *
 * A revocation, a logout, or anything else that ends or narrows what a credential may do (production
 * off, 2FA on, a membership ended) must take effect on the next request on every process, so every
 * change says so: `credentialsChanged(tx)` sends a NOTIFY that PostgreSQL delivers to every
 * process's listener when the transaction commits, and forgets this process's entries at the same
 * moment. Each forgetting moves a generation on; a lookup that started
 * before it does not store what it read, which may be the row as it was before the change. While a
 * process's listener is down it could miss a change, so it caches nothing until the LISTEN is back.
 * Unknown keys are never cached: a revoked key's row stays, and a guessed one costs its lookup. Nor
 * are unknown sessions nor non-members. A session's expiry is no change anyone announces: its reader
 * checks it on every use, cached or not.
 */
import { afterCommit, type Database, type Tx } from '../../db/types.ts';

const CHANNEL = 'lastro_credentials';
/** A bound on how long an entry lives even if a notification were lost in a way nobody saw. */
const ENTRY_TTL_MS = 60_000;
const MAX_ENTRIES = 10_000;

interface Entry<R> {
  row: R;
  storedAtMs: number;
}

class CredentialCache<R> {
  private generation = 0;
  private listening: boolean;
  private readonly entries = new Map<string, Entry<R>>();

  constructor(db: Database) {
    this.listening = db.listen === undefined;
    db.listen?.(CHANNEL, (event) => {
      this.forget();
      this.listening = event !== 'lost';
    });
  }

  forget(): void {
    this.generation++;
    this.entries.clear();
  }

  async find(hash: string, load: () => Promise<R | undefined>): Promise<R | undefined> {
    if (!this.listening) return load();
    const entry = this.entries.get(hash);
    const nowMs = Date.now();
    if (entry && nowMs - entry.storedAtMs < ENTRY_TTL_MS) return entry.row;
    const generation = this.generation;
    const row = await load();
    if (row !== undefined && generation === this.generation && this.listening) {
      if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
      this.entries.set(hash, { row, storedAtMs: nowMs });
    }
    return row;
  }
}

// One cache per database, shared by every app that serves from it in this process.
const caches = new WeakMap<Database, CredentialCache<unknown>>();
const everyCache = new Set<WeakRef<CredentialCache<unknown>>>();

export function cachedCredential<R>(
  db: Database,
  hash: string,
  load: () => Promise<R | undefined>,
): Promise<R | undefined> {
  let cache = caches.get(db) as CredentialCache<R> | undefined;
  if (cache === undefined) {
    cache = new CredentialCache<R>(db);
    caches.set(db, cache);
    everyCache.add(new WeakRef(cache));
  }
  return cache.find(hash, load);
}

/**
 * In the transaction that revokes a key, ends a session or changes what a key or a session user may
 * do: every process forgets every credential it holds (a logout costs each process its cached keys
 * too, one lookup each; simpler than a channel per kind, and logouts are rare next to requests).
 */
export function credentialsChanged(tx: Tx): void {
  tx.later(`SELECT pg_notify('${CHANNEL}', '')`);
  afterCommit(tx, () => {
    for (const ref of everyCache) {
      const cache = ref.deref();
      if (cache) cache.forget();
      else everyCache.delete(ref);
    }
  });
}
