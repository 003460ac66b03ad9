/**
 * The soak's tenants, made over HTTP: owner, key, settlement key, a customer, a wallet, a link, webhooks;
 * and each tenant's two clock workspaces, where the date-driven operations move the sandbox clock.
 */
import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { type Answer, type Credential, call } from './client.ts';
import { RECEIVER_MODES, type Receivers } from './receivers.ts';

export const CPF = '52998224725';
export const OUTSIDE_EVM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';

/** A workspace of the soak: its owner's session, an API key, its parties and webhook endpoints. */
export interface Space {
  name: string;
  workspaceId: string;
  session: Credential;
  api: Credential;
  parties: string[];
  endpoints: { mode: (typeof RECEIVER_MODES)[number]; id: string }[];
}

export interface Tenant extends Space {
  walletId: string;
  linkSlug: string;
  /** Paid charges and what is left to refund of each. */
  paid: { id: string; left: bigint }[];
  /**
   * Workspaces of the date-driven operations (due-date charges, subscriptions), one each: they move
   * their sandbox clock, which every time-sensitive thing of the workspace follows, so nothing else
   * runs in them and one operation at a time does (`busy`).
   */
  clocks?: { due: ClockSpace; subscriptions: ClockSpace };
}

export interface ClockSpace extends Space {
  busy: boolean;
  /** The cash-in fee schedule the soak gave it (fee_schedules), for the soak's own arithmetic. */
  fee: { fixedMinor: bigint; bps: bigint };
}

function must(answer: Answer, what: string) {
  if (answer.status !== 200)
    throw new Error(`soak setup: ${what}: ${answer.status} ${answer.text.slice(0, 300)}`);
  return answer.body.data;
}

/** A signed-up workspace with an API key, a settlement key and endpoints of the given receiver modes. */
async function createSpace(
  base: string,
  name: string,
  receivers: Receivers,
  modes: readonly (typeof RECEIVER_MODES)[number][],
): Promise<Space> {
  const signup = must(
    await call(
      base,
      'POST',
      '/v1/auth/signup',
      {},
      {
        email: `${name}-${randomUUID()}@example.com`,
        password: 'correct horse battery staple',
        workspace_name: name,
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
  const endpoints: Space['endpoints'] = [];
  for (const mode of modes) {
    const endpoint = must(
      await call(base, 'POST', '/v1/sandbox/webhooks/endpoints', api, { url: receivers.url(mode, name) }),
      `endpoint ${mode}`,
    );
    receivers.register(mode, name, endpoint.secret);
    endpoints.push({ mode, id: endpoint.id });
  }
  return { name, workspaceId, session, api, parties: [signup.workspace.default_party_id], endpoints };
}

/**
 * A workspace for date-driven operations, with a cash-in fee so that fees show in what its party is
 * credited. No route sets a workspace's fees (an operator does), so the soak writes the schedule.
 */
async function createClockSpace(
  base: string,
  name: string,
  receivers: Receivers,
  db: pg.Pool,
): Promise<ClockSpace> {
  const space = await createSpace(base, name, receivers, ['ok', 'flaky']);
  const fee = { fixedMinor: 50n, bps: 100n };
  await db.query(
    `INSERT INTO fee_schedules (workspace_id, environment, rail, fixed_minor, bps) VALUES ($1, 'sandbox', 'pix_cash_in', $2, $3)`,
    [space.workspaceId, fee.fixedMinor, fee.bps],
  );
  return { ...space, busy: false, fee };
}

/** `endpoints` receivers of the four modes, rotated by the tenant's index (4: every tenant has all four). */
export async function createTenant(
  base: string,
  index: number,
  receivers: Receivers,
  endpointCount = RECEIVER_MODES.length,
  /** The database, to give the tenant its clock workspaces (their fee schedule is written there). */
  db?: pg.Pool,
): Promise<Tenant> {
  const name = `soak-${index}`;
  const modes = Array.from(
    { length: Math.min(endpointCount, RECEIVER_MODES.length) },
    (_, k) => RECEIVER_MODES[(index + k) % RECEIVER_MODES.length]!,
  );
  const space = await createSpace(base, name, receivers, modes);
  const { api, session } = space;
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
  return {
    ...space,
    parties: [...space.parties, customer.id],
    walletId: wallet.id,
    linkSlug: link.slug,
    paid: [],
    clocks: db && {
      due: await createClockSpace(base, `${name}-due`, receivers, db),
      subscriptions: await createClockSpace(base, `${name}-subscriptions`, receivers, db),
    },
  };
}
