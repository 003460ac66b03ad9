import { availableParallelism } from 'node:os';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ConfigError, groupCommitLanesFor, loadConfig } from '../../src/config.ts';

describe('config', () => {
  it('defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      sandboxSettleMs: 1000,
      webhookAllowPrivate: false,
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 10_000,
      keepAliveTimeoutMs: 5000,
      jobConcurrency: 8,
    });
    expect(loadConfig({ JOB_CONCURRENCY: '16' }).jobConcurrency).toBe(16);
    expect(config.databaseUrl).toBeUndefined();
    expect(config.dataDir).toMatch(/\.lastro$/);
  });

  it('gives group commit the cores shared among the API processes, 2 to 8 lanes a process', () => {
    expect(groupCommitLanesFor(2, 1)).toBe(2);
    expect(groupCommitLanesFor(1, 1)).toBe(2);
    expect(groupCommitLanesFor(6, 1)).toBe(6);
    expect(groupCommitLanesFor(64, 1)).toBe(8);
    expect(groupCommitLanesFor(8, 8)).toBe(2);
    expect(groupCommitLanesFor(32, 4)).toBe(8);
    expect(groupCommitLanesFor(16, 4)).toBe(4);
    expect(loadConfig({}).groupCommitLanes).toBe(groupCommitLanesFor(availableParallelism(), 1));
    expect(loadConfig({ API_PROCESSES: '64' }).groupCommitLanes).toBe(2);
    expect(loadConfig({ GROUP_COMMIT_LANES: '0' }).groupCommitLanes).toBe(0);
    expect(loadConfig({ GROUP_COMMIT_LANES: '16' }).groupCommitLanes).toBe(16);
  });

  it('takes the pool mode: session by default, transaction when a pooler stands between', () => {
    expect(loadConfig({}).databasePoolMode).toBe('session');
    const url = 'postgres://postgres@127.0.0.1:5432/lastro';
    expect(loadConfig({ DATABASE_URL: url, DATABASE_POOL_MODE: 'transaction' }).databasePoolMode).toBe(
      'transaction',
    );
    // PGlite has no pooler: the setting would be read and do nothing.
    expect(() => loadConfig({ DATABASE_POOL_MODE: 'transaction' })).toThrowError(/DATABASE_URL/);
  });

  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'not a url'],
    ['MASTER_KEY', 'short'],
    ['LOG_LEVEL', 'loud'],
    ['DATABASE_POOL_MODE', 'statement'],
    ['SANDBOX_SETTLE_MS', '-1'],
    ['WEBHOOK_ALLOW_PRIVATE', 'yes'],
    ['RATE_LIMIT_MAX', '0'],
    ['REQUEST_TIMEOUT_MS', '0'],
    ['HEADERS_TIMEOUT_MS', '60000'],
    ['KEEP_ALIVE_TIMEOUT_MS', 'soon'],
    ['JOB_CONCURRENCY', '0'],
    ['JOB_CONCURRENCY', '17'],
  ])('%s=%s stops the start with a message naming the setting', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrowError(ConfigError);
    try {
      loadConfig({ [name]: value });
    } catch (error) {
      expect((error as ConfigError).setting).toBe(name);
      expect((error as Error).message.startsWith(`${name}:`)).toBe(true);
    }
  });

  it('any PORT value is either accepted within range or refused with a ConfigError', () => {
    fc.assert(
      fc.property(fc.string(), (value) => {
        try {
          const { port } = loadConfig({ PORT: value });
          expect(port).toBeGreaterThanOrEqual(0);
          expect(port).toBeLessThanOrEqual(65535);
        } catch (error) {
          expect(error).toBeInstanceOf(ConfigError);
        }
      }),
    );
  });
});
