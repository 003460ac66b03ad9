/** The networks a wallet, a send or a whitelisted address can be on: the API's own list, in its order. */
export { NETWORKS } from '@lastro/sdk/generated';
