import { type CarriedWrite, joinWrites, type Tx } from './types.ts';

/** Parameters of one joined statement at most: PostgreSQL takes 65,535, and a batch stays well below. */
const MAX_PARAMS = 16_000;

/**
 * The writes the requests of an interleaved batch left held when they ended: they go as one statement
 * (a chunk of MAX_PARAMS parameters at most), so a batch of payouts sends one statement of new rows
 * instead of one a payout. On Citus (`acrossKeys` false) only one key's (a workspace's) writes meet
 * in a statement: every table of such a statement is named by one workspace, and it runs on that
 * workspace's shard.
 *
 * Held writes add rows nothing reads before COMMIT and touch no row another held write touches
 * (types.ts, CarriedWrite), which is what lets two requests' writes share a statement; the same
 * Idempotency-Key sent twice in a batch still fails its unique index there, and with it the attempt.
 */
export class JoinedWrites {
  private readonly byKey = new Map<string, CarriedWrite[][]>();

  constructor(private readonly acrossKeys: boolean) {}

  add(key: string, writes: CarriedWrite[]): void {
    if (this.acrossKeys) key = '';
    const lists = this.byKey.get(key);
    if (lists) lists.push(writes);
    else this.byKey.set(key, [writes]);
  }

  /** Sends each key's writes as one statement with tx.later(): their errors surface at settle(). */
  send(tx: Tx): void {
    for (const lists of this.byKey.values()) {
      // One order whatever order the requests ended in: a batch of the same kinds of requests sends
      // the same text, prepared once per connection.
      lists.sort(byTexts);
      let chunk: CarriedWrite[] = [];
      let params = 0;
      for (const list of lists) {
        const count = list.reduce((sum, write) => sum + write.params.length, 0);
        if (chunk.length > 0 && params + count > MAX_PARAMS) {
          sendJoined(tx, chunk);
          chunk = [];
          params = 0;
        }
        chunk.push(...list);
        params += count;
      }
      if (chunk.length > 0) sendJoined(tx, chunk);
    }
    this.byKey.clear();
  }
}

function sendJoined(tx: Tx, writes: CarriedWrite[]): void {
  const joined = joinWrites(writes);
  tx.later(joined.text, joined.params);
}

function byTexts(a: CarriedWrite[], b: CarriedWrite[]): number {
  if (a.length !== b.length) return a.length - b.length;
  for (let i = 0; i < a.length; i++) {
    const left = a[i]!.text;
    const right = b[i]!.text;
    if (left !== right) return left < right ? -1 : 1;
  }
  return 0;
}
