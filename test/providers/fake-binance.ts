import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (request: IncomingMessage, response: ServerResponse, url: URL) => void;

/** Answers the way Binance's spot REST API documents it (rest-api.md, errors.md). */
export const bookTickers: Handler = (_request, response, url) => {
  if (url.pathname !== '/api/v3/ticker/bookTicker')
    return json(response, 404, { code: -1, msg: 'Not found' });
  const books: Record<string, { bidPrice: string; askPrice: string }> = {
    USDTBRL: { bidPrice: '5.39800000', askPrice: '5.40100000' },
    USDCBRL: { bidPrice: '5.39500000', askPrice: '5.40500000' },
  };
  let symbols: unknown;
  try {
    symbols = JSON.parse(url.searchParams.get('symbols') ?? '');
  } catch {
    return json(response, 400, { code: -1100, msg: "Illegal characters found in parameter 'symbols'." });
  }
  if (!Array.isArray(symbols) || symbols.some((symbol) => !(symbol in books))) {
    return json(response, 400, { code: -1121, msg: 'Invalid symbol.' });
  }
  json(
    response,
    200,
    symbols.map((symbol: string) => ({
      symbol,
      ...books[symbol],
      bidQty: '1000.00000000',
      askQty: '250.00000000',
    })),
  );
};

export function json(response: ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { 'content-type': 'application/json;charset=UTF-8' });
  response.end(JSON.stringify(body));
}

/** A local fake on 127.0.0.1, port 0. Swap `handler` per test; `requests` lists what it was asked. */
export async function startFakeBinance() {
  const requests: URL[] = [];
  const fake = {
    handler: bookTickers,
    requests,
    url: '',
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    requests.push(url);
    fake.handler(request, response, url);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return fake;
}
