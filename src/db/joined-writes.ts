import { type CarriedWrite, chunksOf, joinWrites, type Tx } from './types.ts';

/** The group of the coordinator's tables: no workspace id holds U+0000. */
const LOCAL = '\u0000local';

/** Joined across requests: a plain INSERT, no upsert (two requests could meet on one row), no RETURNING. */
const INSERT = /^\s*INSERT\s/i;
const NOT_PLAIN = /\bON\s+CONFLICT\b|\bRETURNING\b/i;
const joinable = (write: CarriedWrite) => INSERT.test(write.text) && !NOT_PLAIN.test(write.text);

/**
 * The writes the requests of an interleaved batch left held when they ended, joined into few
 * statements instead of one a request. On Citus (`acrossKeys` false) only one key's (a workspace's)
 * writes meet in a statement: every table of such a statement is named by one workspace, and it runs
 * on that workspace's shard; the writes to the coordinator's own tables (CarriedWrite.local) go
 * together apart.
 *
 * A group's requests go by kind (the same texts held), each kind in chunks of a power of two (a batch
 * of 11: 8, 2 and 1; types.ts, chunksOf): each text is a named statement prepared on every connection,
 * and the process names a bounded number of them, so a kind of request leaves six texts at most
 * rather than one per batch size and mix.
 *
 * Two requests' writes may share a statement only if neither could touch a row the other's touches:
 * only plain INSERTs are joined across requests (the same key twice still fails its unique index,
 * and with it the attempt). A request that holds anything else sends its writes as its own statement.
 */
export class JoinedWrites {
  private readonly byGroup = new Map<string, CarriedWrite[][]>();
  private readonly gathered = new Map<Gatherer<never>, unknown[]>();
  /** Once sent, nothing more is gathered: an item handed over later would never be sent. */
  private sent = false;

  /**
   * `gathers`: whether items are gathered at all. Not where items of several workspaces may not meet
   * in one statement (Citus), nor on PGlite, where a statement costs no round trip and the gathered
   * statements measured slower than the ones they replace.
   */
  constructor(
    private readonly acrossKeys: boolean,
    private readonly gathers: boolean,
  ) {}

  /**
   * Keeps an item for `gatherer`, which makes one statement of every request's items once the
   * attempt's requests all succeeded; false where it gathers nothing, and the caller sends its own.
   */
  gather<T>(gatherer: Gatherer<T>, item: T): boolean {
    if (!this.gathering) return false;
    const items = this.gathered.get(gatherer as Gatherer<never>);
    if (items) items.push(item);
    else this.gathered.set(gatherer as Gatherer<never>, [item]);
    return true;
  }

  /** Whether a statement for every request may still be made of what they hand over or ask. */
  get gathering(): boolean {
    return this.gathers && !this.sent;
  }

  /** Called as a request ends, with what it still holds; `tx` sends what may not be joined. */
  add(tx: Tx, key: string, writes: CarriedWrite[]): void {
    if (!writes.every(joinable)) {
      sendAlone(tx, writes, this.acrossKeys);
      return;
    }
    if (this.acrossKeys) this.addTo('', writes);
    else if (!writes.some((write) => write.local)) this.addTo(key, writes);
    else {
      // On Citus the coordinator's tables (the job queue) meet only each other, whatever the workspace.
      this.addTo(
        LOCAL,
        writes.filter((write) => write.local),
      );
      const distributed = writes.filter((write) => !write.local);
      if (distributed.length > 0) this.addTo(key, distributed);
    }
  }

  /**
   * Sends the gathered items' statements, then every group's writes, with tx.later(): their errors
   * surface at settle().
   */
  send(tx: Tx): void {
    this.sent = true;
    for (const [gatherer, items] of this.gathered) {
      const statement = gatherer.statement(items as never[]);
      tx.later(statement.text, statement.params);
    }
    this.gathered.clear();
    for (const lists of this.byGroup.values()) {
      lists.sort(byTexts);
      for (const kind of runsOf(lists)) for (const chunk of chunksOf(kind)) sendJoined(tx, chunk.flat());
    }
    this.byGroup.clear();
  }

  private addTo(group: string, writes: CarriedWrite[]): void {
    const lists = this.byGroup.get(group);
    if (lists) lists.push(writes);
    else this.byGroup.set(group, [writes]);
  }
}

/**
 * What the requests of an interleaved attempt hand over to be sent as one statement for all of them
 * (the ledger's journals, the parties whose debts a credit asks for): `statement` is given every
 * item, in the order the requests gave them. Its text should not vary with the count (arrays as
 * parameters), since each text is a named statement.
 */
export interface Gatherer<T> {
  statement(items: readonly T[]): { text: string; params: unknown[] };
}

/** Sorted lists cut where their texts change: one run a kind of request. */
function runsOf(lists: CarriedWrite[][]): CarriedWrite[][][] {
  const runs: CarriedWrite[][][] = [];
  for (const list of lists) {
    const run = runs.at(-1);
    if (run !== undefined && byTexts(run[0]!, list) === 0) run.push(list);
    else runs.push([list]);
  }
  return runs;
}

/** One request's writes, joined as a request alone would have sent them. */
function sendAlone(tx: Tx, writes: CarriedWrite[], acrossKeys: boolean): void {
  const distributed = acrossKeys ? writes : writes.filter((write) => !write.local);
  const local = acrossKeys ? [] : writes.filter((write) => write.local);
  if (distributed.length > 0) sendJoined(tx, distributed);
  if (local.length > 0) sendJoined(tx, local);
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
