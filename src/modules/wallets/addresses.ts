import { AppError } from '../../platform/errors.ts';
import { validateAddress } from '../../providers/chain/addresses.ts';
import { isNetwork, type Network } from '../../providers/chain/networks.ts';

const unsupportedNetwork = (network: string, field: string) =>
  new AppError('unsupported_network', `"${network}" is not a supported network.`, [
    { field, issue: 'not a supported network' },
  ]);

/** 400 unsupported_network for a network Lastro does not send on. */
export function checkNetwork(network: string, field = 'body.network'): Network {
  if (!isNetwork(network)) throw unsupportedNetwork(network, field);
  return network;
}

/**
 * The network and address of a request, checked: 400 unsupported_network, then 400 invalid_address
 * with a message naming both networks when the address is of another chain. Returns the address
 * normalised (EIP-55 on EVM), the spelling every table stores.
 */
export function checkAddress(network: string, address: string, field = 'body.address'): string {
  const check = validateAddress(network, address);
  if (check.ok) return check.address;
  if (check.reason === 'unsupported_network') throw unsupportedNetwork(network, 'body.network');
  throw new AppError('invalid_address', check.message, [{ field, issue: check.reason }]);
}
