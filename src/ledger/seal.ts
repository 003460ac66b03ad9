/**
 * Tamper evidence: a hash chain of committed journals per workspace (migration 0013), built by a
 * background task after commit, so posting takes no extra lock and no extra round trip.
 *
 * link(n).hash = SHA-256(link(n-1).hash + "\n" + the journal's canonical text), the first link
 * starting from 64 zeros. Links follow seal order: each round seals the unsealed journals it finds,
 * in id order, after the workspace's head. A journal that commits late (a lower id committed after
 * higher ones were sealed) is found by a later round and gets the next seq: it is chained, only not
 * where its id would sort. Most rounds look at journals from 30 s before the newest sealed one
 * (uuidv7 ids carry their time), one round in ten seconds from ten minutes before it, and a full
 * sweep every ten minutes catches any later straggler. Each bound applies to the seals the round
 * compares against too: unbounded, that side was a scan of every seal, a cost that grew with the books.
 */
import { createHash } from 'node:crypto';
import { isCitusCluster } from '../db/distribute.ts';
import type { Queryable } from '../db/types.ts';
import type { Deps } from '../platform/context.ts';

export const GENESIS = '0'.repeat(64);
const RECENT_MS = 30_000;
const WINDOW_MS = 10 * 60_000;
const WINDOW_SWEEP_MS = 10_000;
const FULL_SWEEP_MS = 10 * 60_000;
const BATCH = 1000;

/**
 * The canonical text of journal `j` (its header, then its postings by id), as SQL over `j`: the
 * sealer and `lastro verify` both hash exactly this, read from the rows as they are now.
 */
export const JOURNAL_TEXT_SQL = `concat_ws('|', j.id, j.workspace_id, j.environment, j.reference_type, j.reference_id,
    (extract(epoch FROM j.posted_at) * 1000000)::bigint,
    (SELECT string_agg(concat_ws(',', p.id, p.account_id, p.direction, p.amount, p.currency), ';' ORDER BY p.id)
       FROM ledger_postings p WHERE p.workspace_id = j.workspace_id AND p.journal_id = j.id))`;

export const linkHash = (previous: string, journalText: string): string =>
  createHash('sha256').update(`${previous}\n${journalText}`).digest('hex');

/** The smallest uuidv7 of a millisecond: ids at or above it were made at that time or later. */
export function uuidv7Floor(ms: number): string {
  const hex = Math.max(0, ms).toString(16).padStart(12, '0');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-0000-0000-000000000000`;
}

const lastFullSweep = new WeakMap<Deps, number>();
const lastWindowSweep = new WeakMap<Deps, number>();
/** Workspaces whose chain could not be extended, left out of rounds until the time given. */
const setAside = new WeakMap<Deps, Map<string, number>>();
const SET_ASIDE_MS = 60_000;

/** The unsealed journals with ids at or above $1, oldest first, outside the workspaces in $2. */
export const UNSEALED_SQL = `SELECT j.id, j.workspace_id FROM ledger_journals j
  WHERE j.id >= $1 AND NOT EXISTS (SELECT 1 FROM ledger_seals s
                                     WHERE s.workspace_id = j.workspace_id AND s.journal_id = j.id AND s.journal_id >= $1)
    AND j.workspace_id <> ALL($2::uuid[])
  ORDER BY j.id LIMIT ${BATCH}`;

/** One round of the sealer: seals what it finds unsealed; returns how many journals it sealed. */
export async function sealJournals(deps: Deps): Promise<number> {
  const now = deps.clock.now().getTime();
  const full = now - (lastFullSweep.get(deps) ?? 0) >= FULL_SWEEP_MS;
  const window = now - (lastWindowSweep.get(deps) ?? 0) >= WINDOW_SWEEP_MS;
  let floor = uuidv7Floor(0);
  if (!full) {
    const { rows } = await deps.db.query<{ newest: string | null }>(
      'SELECT journal_id::text AS newest FROM ledger_seals ORDER BY journal_id DESC LIMIT 1',
    );
    const newest = rows[0]?.newest;
    const ms = newest ? Number.parseInt(newest.replace('-', '').slice(0, 12), 16) : 0;
    floor = uuidv7Floor(ms - (window ? WINDOW_MS : RECENT_MS));
  }
  const aside = setAside.get(deps) ?? new Map<string, number>();
  setAside.set(deps, aside);
  for (const [id, until] of aside) if (until <= now) aside.delete(id);
  const { rows: candidates } = await deps.db.query<Candidate>(UNSEALED_SQL, [floor, [...aside.keys()]]);
  if (candidates.length < BATCH) {
    if (full) lastFullSweep.set(deps, now);
    if (full || window) lastWindowSweep.set(deps, now);
  }
  if (candidates.length === 0) return 0;
  const workspaceIds = [...new Set(candidates.map((row) => row.workspace_id))];
  // On Citus the heads of several workspaces live on several shards, and a multi-shard FOR UPDATE is
  // refused: there each workspace is sealed in a transaction of its own, on its shard.
  if (await sealsPerWorkspace(deps)) {
    const { sealed, error } = await sealApart(deps, aside, workspaceIds, candidates);
    if (error) throw error;
    return sealed;
  }
  try {
    return await sealRound(deps, candidates);
  } catch (error) {
    // A timeout, a busy or lost database says nothing about any one chain: the next round tries all.
    if (!isChainFault(error)) throw error;
    if (workspaceIds.length > 1) await sealApart(deps, aside, workspaceIds, candidates);
    else aside.set(workspaceIds[0]!, now + SET_ASIDE_MS);
    throw error;
  }
}

const perWorkspace = new WeakMap<Deps, boolean>();
async function sealsPerWorkspace(deps: Deps): Promise<boolean> {
  let answer = perWorkspace.get(deps);
  if (answer === undefined) {
    answer = await isCitusCluster(deps.db);
    perWorkspace.set(deps, answer);
  }
  return answer;
}

/**
 * Each workspace in a transaction of its own, so that one whose chain cannot be extended (verify
 * says why) is set aside for a minute and the others are still sealed. Returns how many journals
 * were sealed and the first error that was not a chain's own (for the round to log).
 */
async function sealApart(
  deps: Deps,
  aside: Map<string, number>,
  workspaceIds: string[],
  candidates: Candidate[],
): Promise<{ sealed: number; error?: unknown }> {
  let sealed = 0;
  let first: unknown;
  for (const id of workspaceIds) {
    try {
      sealed += await sealRound(
        deps,
        candidates.filter((row) => row.workspace_id === id),
      );
    } catch (error) {
      if (isChainFault(error)) aside.set(id, deps.clock.now().getTime() + SET_ASIDE_MS);
      else first ??= error;
    }
  }
  return { sealed, error: first };
}

class SealHeadMissing extends Error {}

/** A chain that cannot be extended as it is: a link already at the next seq, or a head gone. */
const isChainFault = (error: unknown) =>
  error instanceof SealHeadMissing || (error as { code?: unknown } | null)?.code === '23505';

interface Candidate {
  id: string;
  workspace_id: string;
}

/**
 * Chains a round's journals in one transaction, whatever their workspaces: a transaction per
 * workspace cost seven round trips each, ≈ 5 statements per payment on the soak. Heads are locked in
 * workspace order, so two sealers never deadlock; missing heads are made first, in a statement of
 * their own, since rows inserted inside the round would be locked out of that order.
 */
async function sealRound(deps: Deps, candidates: Candidate[]) {
  const workspaceIds = [...new Set(candidates.map((row) => row.workspace_id))];
  await deps.db.query(
    `INSERT INTO ledger_seal_heads (workspace_id, seq, hash)
     SELECT w, 0, $2 FROM unnest($1::uuid[]) w ORDER BY w ON CONFLICT DO NOTHING`,
    [workspaceIds, GENESIS],
  );
  return deps.db.transaction(async (tx) => {
    const { rows: heads } = await tx.query<{ workspace_id: string; seq: bigint; hash: string }>(
      `SELECT workspace_id, seq, hash FROM ledger_seal_heads WHERE workspace_id = ANY($1::uuid[])
        ORDER BY workspace_id FOR UPDATE`,
      [workspaceIds],
    );
    if (heads.length < workspaceIds.length)
      throw new SealHeadMissing('a seal head went missing during the round');
    const chains = new Map(heads.map((head) => [head.workspace_id, { seq: head.seq, hash: head.hash }]));
    // Another sealer may have chained some of them while this one waited for the heads.
    const { rows } = await tx.query<{ id: string; workspace_id: string; text: string }>(
      `SELECT j.id, j.workspace_id, ${JOURNAL_TEXT_SQL} AS text FROM ledger_journals j
        WHERE j.workspace_id = ANY($2::uuid[]) AND j.id = ANY($1::uuid[])
          AND NOT EXISTS (SELECT 1 FROM ledger_seals s WHERE s.workspace_id = j.workspace_id AND s.journal_id = j.id)
        ORDER BY j.id`,
      [candidates.map((row) => row.id), workspaceIds],
    );
    if (rows.length === 0) return 0;
    const links = {
      workspaces: [] as string[],
      seqs: [] as bigint[],
      journals: [] as string[],
      hashes: [] as string[],
    };
    for (const row of rows) {
      const chain = chains.get(row.workspace_id)!;
      chain.seq += 1n;
      chain.hash = linkHash(chain.hash, row.text);
      links.workspaces.push(row.workspace_id);
      links.seqs.push(chain.seq);
      links.journals.push(row.id);
      links.hashes.push(chain.hash);
    }
    const moved = [...new Set(links.workspaces)];
    tx.later(
      `INSERT INTO ledger_seals (workspace_id, seq, journal_id, hash)
       SELECT * FROM unnest($1::uuid[], $2::bigint[], $3::uuid[], $4::text[])`,
      [links.workspaces, links.seqs, links.journals, links.hashes],
    );
    tx.later(
      `UPDATE ledger_seal_heads h SET seq = u.seq, hash = u.hash
         FROM unnest($1::uuid[], $2::bigint[], $3::text[]) AS u(workspace_id, seq, hash)
        WHERE h.workspace_id = u.workspace_id`,
      [moved, moved.map((id) => chains.get(id)!.seq), moved.map((id) => chains.get(id)!.hash)],
    );
    return rows.length;
  });
}

export interface ChainReport {
  links: number;
  workspaces: number;
  unsealed: number;
  /** How many problems were found (the first `maxReported` are in `broken`). */
  problems: number;
  /** Links whose recomputed hash differs, heads that do not match their last link, gaps. */
  broken: { workspaceId: string; seq: string; journalId: string | null; issue: string }[];
}

/** Recomputes every workspace's chain from the rows as they are now (`lastro verify`). */
export async function checkChains(q: Queryable, maxReported = 100): Promise<ChainReport> {
  const report: ChainReport = { links: 0, workspaces: 0, unsealed: 0, problems: 0, broken: [] };
  const problem = (workspaceId: string, seq: bigint | string, journalId: string | null, issue: string) => {
    if (report.problems++ < maxReported)
      report.broken.push({ workspaceId, seq: String(seq), journalId, issue });
  };
  // Every workspace with a head or a link: links whose head is gone are checked (and reported) too.
  const { rows: heads } = await q.query<{ workspace_id: string; seq: bigint | null; hash: string | null }>(
    `SELECT w.workspace_id, h.seq, h.hash
       FROM (SELECT workspace_id FROM ledger_seal_heads UNION SELECT workspace_id FROM ledger_seals) w
       LEFT JOIN ledger_seal_heads h ON h.workspace_id = w.workspace_id
      ORDER BY w.workspace_id`,
  );
  for (const head of heads) {
    report.workspaces++;
    let previous = GENESIS;
    let expected = 1n;
    let after = 0n;
    for (;;) {
      const { rows } = await q.query<{ seq: bigint; journal_id: string; hash: string; text: string | null }>(
        `SELECT s.seq, s.journal_id, s.hash, (SELECT ${JOURNAL_TEXT_SQL} FROM ledger_journals j WHERE j.workspace_id = s.workspace_id AND j.id = s.journal_id) AS text
           FROM ledger_seals s WHERE s.workspace_id = $1 AND s.seq > $2 ORDER BY s.seq LIMIT 5000`,
        [head.workspace_id, after],
      );
      for (const link of rows) {
        if (link.seq !== expected)
          problem(head.workspace_id, link.seq, link.journal_id, `gap: expected seq ${expected}`);
        if (link.text === null)
          problem(head.workspace_id, link.seq, link.journal_id, 'sealed journal is missing');
        else if (linkHash(previous, link.text) !== link.hash)
          problem(
            head.workspace_id,
            link.seq,
            link.journal_id,
            'hash does not match the journal and the previous link',
          );
        previous = link.hash;
        expected = link.seq + 1n;
        report.links++;
      }
      if (rows.length < 5000) break;
      after = rows.at(-1)!.seq;
    }
    if (head.seq === null) problem(head.workspace_id, expected - 1n, null, 'links without their head');
    else if (expected - 1n !== head.seq || previous !== head.hash)
      problem(head.workspace_id, head.seq, null, 'head does not match the last link');
  }
  const { rows } = await q.query<{ n: bigint }>(
    `SELECT count(*)::bigint AS n FROM ledger_journals j
      WHERE NOT EXISTS (SELECT 1 FROM ledger_seals s WHERE s.workspace_id = j.workspace_id AND s.journal_id = j.id)`,
  );
  report.unsealed = Number(rows[0]!.n);
  return report;
}
