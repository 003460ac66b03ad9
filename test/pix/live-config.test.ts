/** Live PIX settings: complete ones build the live PSP; an incomplete one stops the start and names the setting. */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { makeTestCerts } from '../support/fakes/certs.ts';

const certs = makeTestCerts();
afterAll(() => certs.remove());

const complete = {
  PIX_PROVIDER: 'bcb',
  PIX_BCB_BASE_URL: 'https://pix.example.com/v2',
  PIX_BCB_TOKEN_URL: 'https://pix.example.com/oauth/token',
  PIX_BCB_CLIENT_ID: 'client',
  PIX_BCB_CLIENT_SECRET: 'secret',
  PIX_BCB_CERT_FILE: certs.clientCertFile,
  PIX_BCB_KEY_FILE: certs.clientKeyFile,
  PIX_BCB_PIX_KEY: 'pix@lastro.example',
  PIX_WEBHOOK_URL: 'https://api.lastro.example/v1/psp/pix/notifications',
  PIX_WEBHOOK_SECRET: 'a'.repeat(32),
};

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    return error instanceof ConfigError ? error.setting : String(error);
  }
  return 'accepted';
};

describe('live PIX settings', () => {
  it('none by default; complete bcb settings load, the payout API defaulting to the same host', () => {
    expect(loadConfig({}).pix).toEqual({ provider: 'none' });
    const pix = loadConfig(complete).pix;
    expect(pix.bcb).toMatchObject({
      payoutBaseUrl: 'https://pix.example.com',
      timeoutMs: 10_000,
      caFile: undefined,
    });
  });

  it.each(Object.keys(complete).filter((name) => name !== 'PIX_PROVIDER'))(
    'without %s refuses, naming it',
    (name) => {
      expect(refusal({ ...complete, [name]: '' })).toBe(name);
    },
  );

  it('refuses bad values, naming the setting', () => {
    expect(refusal({ ...complete, PIX_PROVIDER: 'acme' })).toBe('PIX_PROVIDER');
    expect(refusal({ ...complete, PIX_BCB_BASE_URL: 'http://pix.example.com/v2' })).toBe('PIX_BCB_BASE_URL');
    expect(refusal({ ...complete, PIX_BCB_CERT_FILE: path.join(certs.dir, 'missing.pem') })).toBe(
      'PIX_BCB_CERT_FILE',
    );
    expect(refusal({ ...complete, PIX_WEBHOOK_SECRET: 'short' })).toBe('PIX_WEBHOOK_SECRET');
    expect(refusal({ ...complete, PIX_WEBHOOK_URL: 'https://x.example/n?hmac=1' })).toBe('PIX_WEBHOOK_URL');
    expect(refusal({ ...complete, PIX_TIMEOUT_MS: '10' })).toBe('PIX_TIMEOUT_MS');
  });

  it('Pix Automático needs the receiver’s account: off when unset, a half-set one refused, named', () => {
    expect(loadConfig(complete).pix.bcb?.receiver).toBeUndefined();
    const receiver = {
      PIX_RECEIVER_ACCOUNT: '012682',
      PIX_RECEIVER_ACCOUNT_TYPE: 'CORRENTE',
      PIX_RECEIVER_BRANCH: '9708',
    };
    expect(loadConfig({ ...complete, ...receiver }).pix.bcb?.receiver).toEqual({
      account: '012682',
      accountType: 'CORRENTE',
      branch: '9708',
    });
    expect(refusal({ ...complete, PIX_RECEIVER_ACCOUNT_TYPE: 'CORRENTE' })).toBe('PIX_RECEIVER_ACCOUNT');
    expect(refusal({ ...complete, PIX_RECEIVER_ACCOUNT: '012682' })).toBe('PIX_RECEIVER_ACCOUNT_TYPE');
    expect(refusal({ ...complete, PIX_RECEIVER_BRANCH: '9708' })).toBe('PIX_RECEIVER_ACCOUNT');
    expect(refusal({ ...complete, ...receiver, PIX_RECEIVER_ACCOUNT: '01268-2' })).toBe(
      'PIX_RECEIVER_ACCOUNT',
    );
    expect(refusal({ ...complete, ...receiver, PIX_RECEIVER_ACCOUNT_TYPE: 'POUPANÇA' })).toBe(
      'PIX_RECEIVER_ACCOUNT_TYPE',
    );
    expect(refusal({ ...complete, ...receiver, PIX_RECEIVER_BRANCH: '97080' })).toBe('PIX_RECEIVER_BRANCH');
  });

  it('the server refuses to start with an incomplete live PIX setting and says which', () => {
    const env = {
      ...process.env,
      ...complete,
      PIX_BCB_CLIENT_SECRET: '',
      DATA_DIR: certs.dir,
      LOG_LEVEL: 'silent',
    };
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
      cwd: path.resolve(import.meta.dirname, '../..'),
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain('PIX_BCB_CLIENT_SECRET');
  }, 60_000);
});
