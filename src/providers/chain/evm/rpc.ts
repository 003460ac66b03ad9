/** A JSON-RPC 2.0 client over HTTP for one Ethereum node (the eth_* methods of the execution API). */

/** The node answered with a JSON-RPC error: it saw the call and refused it. */
export class RpcError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(`${method}: ${message}`);
    this.name = 'RpcError';
  }
}

export interface RpcBlock {
  number: string;
  hash: string;
  timestamp: string;
  baseFeePerGas?: string;
}

export interface RpcReceipt {
  transactionHash: string;
  blockNumber: string;
  blockHash: string;
  status: string;
}

export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  logIndex: string;
  removed?: boolean;
}

export const hex = (value: bigint | number) => `0x${value.toString(16)}`;

export class JsonRpc {
  private nextId = 1;

  constructor(
    readonly url: string,
    private readonly timeoutMs: number,
  ) {}

  async call<T>(method: string, params: unknown[] = []): Promise<T> {
    const res = await fetch(this.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params }),
      signal: AbortSignal.timeout(this.timeoutMs),
    });
    if (!res.ok) throw new Error(`${method}: HTTP ${res.status} from the node`);
    const body = (await res.json()) as {
      result?: T;
      error?: { code: number; message: string; data?: unknown };
    };
    if (body.error) throw new RpcError(method, body.error.code, body.error.message, body.error.data);
    return body.result as T;
  }

  async blockNumber(): Promise<bigint> {
    return BigInt(await this.call<string>('eth_blockNumber'));
  }

  getBlock(tag: bigint | 'latest'): Promise<RpcBlock | null> {
    return this.call('eth_getBlockByNumber', [typeof tag === 'bigint' ? hex(tag) : tag, false]);
  }

  async nonceAt(address: string, tag: bigint | 'pending' | 'latest'): Promise<bigint> {
    const at = typeof tag === 'bigint' ? hex(tag) : tag;
    return BigInt(await this.call<string>('eth_getTransactionCount', [address, at]));
  }

  async balance(address: string): Promise<bigint> {
    return BigInt(await this.call<string>('eth_getBalance', [address, 'latest']));
  }

  receipt(hash: string): Promise<RpcReceipt | null> {
    return this.call('eth_getTransactionReceipt', [hash]);
  }

  transaction(hash: string): Promise<{ hash: string } | null> {
    return this.call('eth_getTransactionByHash', [hash]);
  }

  sendRaw(raw: string): Promise<string> {
    return this.call('eth_sendRawTransaction', [raw]);
  }
}
