/** How /dashboard is served: the build's files, the SPA fallback, headers, and a missing build. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardFile } from '../../src/modules/dashboard/files.ts';
import { startTestApp, type TestContext } from '../support/app.ts';

describe('dashboard files', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'dashboard-'));
    mkdirSync(path.join(dir, 'assets'));
    writeFileSync(path.join(dir, 'index.html'), '<!doctype html><title>app</title>');
    writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
    writeFileSync(path.join(dir, 'favicon.svg'), '<svg/>');
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('serves hashed assets as immutable and everything else as the app page', async () => {
    const asset = await dashboardFile('assets/index-abc123.js', dir);
    expect(asset).toMatchObject({
      type: 'text/javascript; charset=utf-8',
      cacheControl: 'public, max-age=31536000, immutable',
    });
    const icon = await dashboardFile('favicon.svg', dir);
    expect(icon).toMatchObject({ type: 'image/svg+xml', cacheControl: 'no-cache' });
    for (const route of ['', 'payments', 'payments/0193d0a2-1111-7000-8000-000000000000', 'keys/']) {
      const page = await dashboardFile(route, dir);
      expect(page).toMatchObject({ type: 'text/html; charset=utf-8', cacheControl: 'no-cache' });
      expect(String((page as { body: Buffer }).body)).toContain('<title>app</title>');
    }
  });

  it('answers not_found for a missing asset and never leaves the build directory', async () => {
    expect(await dashboardFile('assets/index-gone.js', dir)).toBe('not_found');
    expect(await dashboardFile('../package.json', dir)).toBe('not_found');
    expect(await dashboardFile('assets/../../../../etc/passwd.js', dir)).toBe('not_found');
  });

  it('says the build is missing when there is no index.html', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'dashboard-empty-'));
    try {
      expect(await dashboardFile('', empty)).toBe('missing');
      expect(await dashboardFile('payments', empty)).toBe('missing');
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});

describe('dashboard routes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await startTestApp();
  });
  afterAll(() => ctx?.close());

  it('sends strict security headers with no inline script allowed, built or not', async () => {
    for (const url of ['/dashboard', '/dashboard/', '/dashboard/webhooks']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      // 503 is the clear page of a server whose dashboard was never built.
      expect([200, 503]).toContain(res.statusCode);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      if (res.statusCode === 503) expect(res.body).toContain('npm run build:dashboard');
    }
  });

  it('answers 404 for an asset that does not exist and needs no credential', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/dashboard/assets/nothing-here.js' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
  });
});
