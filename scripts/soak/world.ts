/** The soak's tenants, made over HTTP: owner, key, settlement key, a customer, a wallet, a link, webhooks. */
import { randomUUID } from 'node:crypto';
import { type Answer, type Credential, call } from './client.ts';
import { RECEIVER_MODES, type Receivers } from './receivers.ts';

export const CPF = '52998224725';
export const OUTSIDE_EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

export interface Tenant {
  name: string;
  workspaceId: string;
  session: Credential;
  api: Credential;
  parties: string[];
  walletId: string;
  linkSlug: string;
  endpoints: { mode: (typeof RECEIVER_MODES)[number]; id: string }[];
  /** Paid charges and what is left to refund of each. */
  paid: { id: string; left: bigint }[];
}

function must(answer: Answer, what: string) {
  if (answer.status !== 200)
    throw new Error(`soak setup: ${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.body.data;
}

/** `endpoints` receivers of the four modes, rotated by the tenant's index (4: every tenant has all four). */
export async function createTenant(
  base: string,
  index: number,
  receivers: Receivers,
  endpointCount = RECEIVER_MODES.length,
): Promise<Tenant> {
  const name = `soak-${index}`;
  const signup = must(
    await call(
      base,
      'POST',
      '/v1/auth/signup',
      {},
      {
        email: `${name}-${randomUUID()}@example.com`,
        password: 'correct horse battery staple',
        workspace_name: `Soak ${index}`,
      },
    ),
    'signup',
  );
  const workspaceId: string = signup.workspace.id;
  const session = { token: signup.session_token as string, workspaceId };
  const key = must(await call(base, 'POST', '/v1/sandbox/api-keys', session, { name: 'soak' }), 'api key');
  const api = { token: key.secret as string, workspaceId };
  must(
    await call(base, 'PUT', '/v1/sandbox/settlement-key', session, {
      pix_key: 'tesouraria@soak.example.com',
      holder_name: 'Soak Ltda',
      holder_document: '11222333000181',
    }),
    'settlement key',
  );
  const customer = must(
    await call(base, 'POST', '/v1/sandbox/customers', api, { display_name: `Cliente ${index}` }),
    'customer',
  );
  const wallet = must(await call(base, 'POST', '/v1/sandbox/wallets', api, { network: 'polygon' }), 'wallet');
  must(
    await call(base, 'POST', '/v1/sandbox/whitelist', session, { network: 'polygon', address: OUTSIDE_EVM }),
    'whitelist',
  );
  const link = must(
    await call(base, 'POST', '/v1/sandbox/payment-links', api, { amount_minor: '5000', title: 'Soak' }),
    'link',
  );
  must(
    await call(base, 'PUT', `/v1/sandbox/payment-links/${link.id}/splits`, api, {
      splits: [{ party_id: customer.id, share_bps: 2500 }],
    }),
    'splits',
  );
  const endpoints: Tenant['endpoints'] = [];
  const modes = Array.from(
    { length: Math.min(endpointCount, RECEIVER_MODES.length) },
    (_, k) => RECEIVER_MODES[(index + k) % RECEIVER_MODES.length]!,
  );
  for (const mode of modes) {
    const endpoint = must(
      await call(base, 'POST', '/v1/sandbox/webhooks/endpoints', api, { url: receivers.url(mode, name) }),
      `endpoint ${mode}`,
    );
    receivers.register(mode, name, endpoint.secret);
    endpoints.push({ mode, id: endpoint.id });
  }
  return {
    name,
    workspaceId,
    session,
    api,
    parties: [signup.workspace.default_party_id, customer.id],
    walletId: wallet.id,
    linkSlug: link.slug,
    endpoints,
    paid: [],
  };
}
