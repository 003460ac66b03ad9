import { accessSync, constants } from 'node:fs';
import { ConfigError } from '../../config-error.ts';

/** The live PIX settings, read by src/config.ts with the others (ConfigError names the setting). */
export interface PixConfig {
  /** 'none' leaves live PIX unconfigured: every live PIX call answers 503 provider_unavailable. */
  provider: 'none' | 'bcb';
  bcb?: BcbSettings;
}

/** A PSP that speaks the Banco Central's API Pix (charges, refunds, webhooks) and Efí's payout API. */
export interface BcbSettings {
  /** API Pix base URL with its version, e.g. https://pix.api.efipay.com.br/v2 */
  baseUrl: string;
  /** OAuth2 token endpoint (client credentials over the same mutual TLS). */
  tokenUrl: string;
  /** Base URL of the payout API (PUT /v3/gn/pix/:idEnvio); defaults to the origin of baseUrl. */
  payoutBaseUrl: string;
  clientId: string;
  clientSecret: string;
  /** PEM files: our client certificate and key, and the CA the PSP's server certificate chains to. */
  certFile: string;
  keyFile: string;
  caFile: string | undefined;
  /** Our PIX key at the PSP: charges are paid to it, payouts leave from it, its webhook is ours. */
  pixKey: string;
  /** Public URL of POST /v1/psp/pix/notifications as the PSP reaches it (the PSP appends /pix). */
  webhookUrl: string;
  /** Sent in the registered URL as ?hmac=…; a notification without it is refused. */
  webhookSecret: string;
  timeoutMs: number;
  /**
   * The workspace that owns our PIX key: a PIX received on it without a charge of ours is held for
   * it to assign or return (docs/going-live.md). Unset, such a PIX is set aside for an operator.
   */
  unassignedWorkspaceId?: string;
  /**
   * Our account at the PSP, which each Pix Automático cycle's charge names (PUT /cobr/{txid}
   * `recebedor`, required by the API Pix). Unset, live Pix Automático is not offered.
   */
  receiver?: ReceiverAccount;
}

/** The API Pix's DadosBancariosRecebedor: conta and tipoConta required, agencia optional. */
export interface ReceiverAccount {
  account: string;
  accountType: (typeof ACCOUNT_TYPES)[number];
  branch?: string;
}

const ACCOUNT_TYPES = ['CORRENTE', 'POUPANCA', 'PAGAMENTO'] as const;

type Env = Record<string, string | undefined>;

const REQUIRED = [
  'PIX_BCB_BASE_URL',
  'PIX_BCB_TOKEN_URL',
  'PIX_BCB_CLIENT_ID',
  'PIX_BCB_CLIENT_SECRET',
  'PIX_BCB_CERT_FILE',
  'PIX_BCB_KEY_FILE',
  'PIX_BCB_PIX_KEY',
  'PIX_WEBHOOK_URL',
  'PIX_WEBHOOK_SECRET',
] as const;

function httpsUrl(env: Env, name: string): string {
  const raw = env[name]!;
  if (!URL.canParse(raw) || new URL(raw).protocol !== 'https:') {
    throw new ConfigError(name, 'must be an https:// URL');
  }
  return raw.replace(/\/+$/, '');
}

function readable(env: Env, name: string): string {
  const file = env[name]!;
  try {
    accessSync(file, constants.R_OK);
  } catch {
    throw new ConfigError(name, `cannot read the file ${file}`);
  }
  return file;
}

export function loadPixConfig(env: Env = process.env): PixConfig {
  const provider = env.PIX_PROVIDER || 'none';
  if (provider === 'none') return { provider };
  if (provider !== 'bcb') throw new ConfigError('PIX_PROVIDER', `must be none or bcb, got "${provider}"`);
  const missing = REQUIRED.find((name) => !env[name]);
  if (missing) throw new ConfigError(missing, 'is required when PIX_PROVIDER=bcb');
  const secret = env.PIX_WEBHOOK_SECRET!;
  if (!/^[A-Za-z0-9]{24,128}$/.test(secret)) {
    throw new ConfigError('PIX_WEBHOOK_SECRET', 'must be 24 to 128 letters and digits');
  }
  const timeoutRaw = env.PIX_TIMEOUT_MS || '10000';
  const timeoutMs = /^[0-9]{1,6}$/.test(timeoutRaw) ? Number(timeoutRaw) : Number.NaN;
  if (!(timeoutMs >= 500 && timeoutMs <= 120_000)) {
    throw new ConfigError('PIX_TIMEOUT_MS', `must be a whole number from 500 to 120000, got "${timeoutRaw}"`);
  }
  const baseUrl = httpsUrl(env, 'PIX_BCB_BASE_URL');
  return {
    provider,
    bcb: {
      baseUrl,
      tokenUrl: httpsUrl(env, 'PIX_BCB_TOKEN_URL'),
      payoutBaseUrl: env.PIX_PAYOUT_BASE_URL ? httpsUrl(env, 'PIX_PAYOUT_BASE_URL') : new URL(baseUrl).origin,
      clientId: env.PIX_BCB_CLIENT_ID!,
      clientSecret: env.PIX_BCB_CLIENT_SECRET!,
      certFile: readable(env, 'PIX_BCB_CERT_FILE'),
      keyFile: readable(env, 'PIX_BCB_KEY_FILE'),
      caFile: env.PIX_BCB_CA_FILE ? readable(env, 'PIX_BCB_CA_FILE') : undefined,
      pixKey: env.PIX_BCB_PIX_KEY!,
      webhookUrl: httpsOrLocal(env, 'PIX_WEBHOOK_URL'),
      webhookSecret: secret,
      timeoutMs,
      unassignedWorkspaceId: workspaceIdOf(env, 'PIX_UNASSIGNED_WORKSPACE_ID'),
      receiver: receiverOf(env),
    },
  };
}

/**
 * The receiver's account for Pix Automático: none of PIX_RECEIVER_* set leaves it off; any of them
 * set asks for the account and its type, so a half-configured deployment stops at start, named,
 * rather than have every cycle's charge refused by the PSP.
 */
function receiverOf(env: Env): ReceiverAccount | undefined {
  const names = ['PIX_RECEIVER_ACCOUNT', 'PIX_RECEIVER_ACCOUNT_TYPE', 'PIX_RECEIVER_BRANCH'];
  if (!names.some((name) => env[name])) return undefined;
  const account = env.PIX_RECEIVER_ACCOUNT;
  if (!account)
    throw new ConfigError('PIX_RECEIVER_ACCOUNT', 'is required with PIX_RECEIVER_* (Pix Automático)');
  if (!/^[0-9]{1,20}$/.test(account))
    throw new ConfigError('PIX_RECEIVER_ACCOUNT', 'must be 1 to 20 digits (check digit included, no dash)');
  const type = env.PIX_RECEIVER_ACCOUNT_TYPE;
  if (!type)
    throw new ConfigError('PIX_RECEIVER_ACCOUNT_TYPE', 'is required with PIX_RECEIVER_* (Pix Automático)');
  if (!(ACCOUNT_TYPES as readonly string[]).includes(type))
    throw new ConfigError(
      'PIX_RECEIVER_ACCOUNT_TYPE',
      `must be CORRENTE, POUPANCA or PAGAMENTO, got "${type}"`,
    );
  const branch = env.PIX_RECEIVER_BRANCH;
  if (branch && !/^[0-9]{1,4}$/.test(branch))
    throw new ConfigError('PIX_RECEIVER_BRANCH', 'must be 1 to 4 digits');
  return {
    account,
    accountType: type as ReceiverAccount['accountType'],
    ...(branch ? { branch } : {}),
  };
}

function workspaceIdOf(env: Env, name: string): string | undefined {
  const raw = env[name];
  if (!raw) return undefined;
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(raw))
    throw new ConfigError(name, 'must be a workspace id (a UUID)');
  return raw.toLowerCase();
}

/** The PSP calls an https URL; http is accepted only on a loopback address (a local proxy, the tests). */
function httpsOrLocal(env: Env, name: string): string {
  const raw = env[name]!;
  const url = URL.canParse(raw) ? new URL(raw) : undefined;
  const local = url?.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (!url || (url.protocol !== 'https:' && !local) || url.search) {
    throw new ConfigError(name, 'must be an https:// URL without a query');
  }
  return raw.replace(/\/+$/, '');
}

export const PIX_SETTINGS: { name: string; default: string; meaning: string }[] = [
  { name: 'PIX_PROVIDER', default: 'none', meaning: 'live PIX PSP: none (live PIX answers 503) or bcb' },
  { name: 'PIX_BCB_BASE_URL', default: '(unset)', meaning: 'API Pix base URL with its version path' },
  { name: 'PIX_BCB_TOKEN_URL', default: '(unset)', meaning: 'OAuth2 token endpoint of the PSP' },
  { name: 'PIX_BCB_CLIENT_ID', default: '(unset)', meaning: 'OAuth2 client id' },
  { name: 'PIX_BCB_CLIENT_SECRET', default: '(unset)', meaning: 'OAuth2 client secret' },
  { name: 'PIX_BCB_CERT_FILE', default: '(unset)', meaning: 'PEM client certificate for mutual TLS' },
  { name: 'PIX_BCB_KEY_FILE', default: '(unset)', meaning: 'PEM private key of that certificate' },
  { name: 'PIX_BCB_CA_FILE', default: '(system CAs)', meaning: "PEM CA of the PSP's server certificate" },
  { name: 'PIX_BCB_PIX_KEY', default: '(unset)', meaning: 'our PIX key at the PSP (charges, payouts)' },
  {
    name: 'PIX_PAYOUT_BASE_URL',
    default: '(origin of PIX_BCB_BASE_URL)',
    meaning: 'base URL of the payout API (Efí PUT /v3/gn/pix)',
  },
  { name: 'PIX_WEBHOOK_URL', default: '(unset)', meaning: 'public URL of POST /v1/psp/pix/notifications' },
  { name: 'PIX_WEBHOOK_SECRET', default: '(unset)', meaning: 'hmac query secret the PSP sends back' },
  { name: 'PIX_TIMEOUT_MS', default: '10000', meaning: 'timeout of each call to the PSP' },
  {
    name: 'PIX_RECEIVER_ACCOUNT',
    default: '(unset)',
    meaning:
      'our account number at the PSP, named by each Pix Automático cycle charge; unset, live Pix Automático is off',
  },
  {
    name: 'PIX_RECEIVER_ACCOUNT_TYPE',
    default: '(unset)',
    meaning: 'type of that account: CORRENTE, POUPANCA or PAGAMENTO (required with PIX_RECEIVER_ACCOUNT)',
  },
  {
    name: 'PIX_RECEIVER_BRANCH',
    default: '(unset)',
    meaning: 'branch (agência) of that account, up to 4 digits',
  },
  {
    name: 'PIX_UNASSIGNED_WORKSPACE_ID',
    default: '(unset)',
    meaning:
      'workspace that owns our PIX key: PIX received without a charge are held for it to assign or return',
  },
];
