/**
 * The networks a wallet, a send or a whitelisted address can be on, in the API's order. The SDK's
 * generated constants carry no network list (the schema types `network` as a string), so it is
 * written here, and test/dashboard/lists.test.ts fails when it drifts from the server's.
 */
export const NETWORKS = [
  'ethereum',
  'polygon',
  'base',
  'arbitrum',
  'optimism',
  'bsc',
  'avalanche',
  'tron',
  'solana',
] as const;
