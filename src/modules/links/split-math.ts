/**
 * The split arithmetic, apart from any storage: what each recipient of a paid checkout receives.
 * Each recipient gets floor(net × share_bps / 10000) (what the service pays out rounds down); the
 * link's owner gets the rest, so the parts always add up to the net exactly.
 */
export const MAX_SPLITS = 20;
export const FULL_SHARE_BPS = 10_000;

export interface Share {
  party_id: string;
  share_bps: number;
}

export interface Part {
  partyId: string;
  amount: bigint;
}

/**
 * The parts of `net` for `shares`, the owner's remainder last. A party named twice (the owner among
 * the recipients) is credited once with the sum, so one journal has one posting per account.
 */
export function splitNet(net: bigint, shares: readonly Share[], ownerPartyId: string): Part[] {
  if (net < 0n) throw new Error('net must be ≥ 0');
  const total = shares.reduce((sum, share) => sum + share.share_bps, 0);
  if (total > FULL_SHARE_BPS) throw new Error('shares exceed 10000 bps');
  const parts = new Map<string, bigint>();
  const add = (partyId: string, amount: bigint) =>
    parts.set(partyId.toLowerCase(), (parts.get(partyId.toLowerCase()) ?? 0n) + amount);
  let given = 0n;
  for (const share of shares) {
    const amount = (net * BigInt(share.share_bps)) / BigInt(FULL_SHARE_BPS);
    add(share.party_id, amount);
    given += amount;
  }
  add(ownerPartyId, net - given);
  return [...parts].map(([partyId, amount]) => ({ partyId, amount }));
}
