/**
 * The dashboard in a real browser (Debian's chromium through playwright-core) against the real app
 * listening on 127.0.0.1 with its background workers running, so payouts settle and webhooks go out
 * by themselves. The walk: sign up → enable 2FA (TOTP computed here with otplib) → log in again with
 * the code → create an API key → set the settlement key → add a webhook endpoint (a local receiver)
 * → simulate a cash-in → pay out → the payout completes and its delivery shows in the log (and is
 * retried); then a payment link with a split → its hosted checkout → paid. The recovery codes shown
 * when 2FA goes on log in once. At 390×844 every page fits the screen (no horizontal scroll) behind
 * a menu button and, in Portuguese, shows none of the catalogue's English. axe-core checks every main
 * page, on a phone too. Screenshots go to test-artifacts/dashboard/ (docs/dashboard/ holds a copy).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TaskRunner } from '../../src/platform/tasks.ts';
import { BACKGROUND_TASKS } from '../../src/worker.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { WebhookReceiver } from '../support/webhook-receiver.ts';
import {
  type AxeFinding,
  type Chromium,
  canRunBrowser,
  launchChromium,
  seriousAxeViolations,
  untranslatedEnglish,
  watchProblems,
} from './browser-support.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');
const ARTIFACTS = path.join(ROOT, 'test-artifacts/dashboard');
const PASSWORD = 'correct horse battery staple';
const CPF = '52998224725';
const CNPJ = '11222333000181';

/** What the dashboard shows for BRL minor units in English. */
const brlEn = (minor: bigint) =>
  `R$${(minor / 100n).toLocaleString('en')}.${(minor % 100n).toString().padStart(2, '0')}`;

// Generous: on a loaded machine the browser, the app and its workers share the cores.
describe.skipIf(!canRunBrowser)('dashboard in chromium', { timeout: 180_000 }, () => {
  let ctx: TestContext;
  let runner: TaskRunner;
  let receiver: WebhookReceiver;
  let chromium: Chromium;
  let base: string;
  let page: Page;
  let problems: string[];
  const axeFindings: Record<string, AxeFinding[]> = {};
  const email = `owner-${Date.now()}@cafe-aurora.com.br`;
  let workspaceId = '';
  let apiKey = '';
  let totpSecret = '';
  // A code is accepted once (RFC 6238 §5.2): each use waits for a step later than the last one used.
  let lastStep = 0;
  const freshCode = async (secret: string) => {
    while (Math.floor(Date.now() / 30_000) <= lastStep) await new Promise((r) => setTimeout(r, 250));
    const now = Date.now();
    lastStep = Math.floor(now / 30_000);
    return generateSync({ secret, epoch: Math.floor(now / 1000) });
  };

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // The test drives the current source: build it as `npm ci` (prepare) would.
    execFileSync(
      'npx',
      ['vite', 'build', '--config', 'web/dashboard/vite.config.ts', '--logLevel', 'error'],
      {
        cwd: ROOT,
        stdio: 'inherit',
      },
    );
    ctx = await startTestApp({ webhookAllowPrivate: true, sandboxSettleMs: 300 });
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    runner = new TaskRunner(ctx.deps, [...BACKGROUND_TASKS], ctx.app.log);
    runner.start();
    receiver = await WebhookReceiver.start();
    chromium = await launchChromium({ locale: 'en-US', origin: base });
    chromium.context.setDefaultTimeout(60_000);
    page = await chromium.context.newPage();
    // The browser logs each API error the walk provokes on purpose (a short password, a wrong code):
    // those the page shows as sentences; any other console error, exception or CSP refusal fails.
    problems = watchProblems(page, (text) => text.startsWith('Failed to load resource'));
  }, 300_000);
  afterAll(async () => {
    await chromium?.close();
    await runner?.stop();
    await receiver?.close();
    await ctx?.close();
  });

  const shot = (name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });
  const form = (name: string) => page.getByRole('form', { name });
  const heading = () => page.locator('#page-title');

  async function open(section: string, title: string) {
    await page.getByRole('navigation').getByRole('link', { name: section, exact: true }).click();
    await expect.poll(() => heading().textContent()).toBe(title);
    await page.waitForLoadState('networkidle');
  }

  async function checkA11y(name: string) {
    axeFindings[name] = await seriousAxeViolations(page);
  }

  /** A call with the key the dashboard created: what an integrator would see. */
  async function withKey(pathname: string) {
    const res = await fetch(`${base}/v1/sandbox${pathname}`, {
      headers: { authorization: `Bearer ${apiKey}`, 'x-workspace-id': workspaceId },
    });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: unknown }).data;
  }

  it('serves the app with strict headers, immutable hashed assets and a client-side fallback', async () => {
    const res = await fetch(`${base}/dashboard/payments/anything`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    const html = await res.text();
    const script = html.match(/src="(\/dashboard\/assets\/[^"]+\.js)"/)?.[1];
    expect(script).toBeDefined();
    const asset = await fetch(`${base}${script}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  });

  it('signs up, shows field errors as sentences, and marks the sandbox', async () => {
    await page.goto(`${base}/dashboard/`);
    // Portuguese by default, validator messages included.
    expect(await page.locator('h1').textContent()).toBe('Entrar');
    await page.getByRole('button', { name: 'Criar uma conta' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Senha').fill('curta');
    await page.getByLabel('Nome da empresa').fill('Café Aurora');
    await page.getByRole('button', { name: 'Criar conta' }).click();
    const senhaError = page.locator('.field', { has: page.getByLabel('Senha') }).locator('.error');
    await expect.poll(() => senhaError.textContent()).toBe('Senha deve ter pelo menos 12 caracteres.');

    // English on request; the error names the field as the person sees it.
    await page.locator('.locale select').selectOption('en');
    expect(await page.locator('h1').textContent()).toBe('Create an account');
    await page.getByLabel('Password').fill('too short');
    await page.getByRole('button', { name: 'Create account' }).click();
    const passwordError = page.locator('.field', { has: page.getByLabel('Password') }).locator('.error');
    await expect
      .poll(() => passwordError.textContent())
      .toBe('Password must NOT have fewer than 12 characters.');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await checkA11y('signup');
    await shot('signup-error');

    await page.getByLabel('Password').fill(PASSWORD);
    const signedUp = page.waitForResponse((r) => r.url().endsWith('/v1/auth/signup'));
    await page.getByRole('button', { name: 'Create account' }).click();
    const body = (await (await signedUp).json()) as { data: { workspace: { id: string } } };
    workspaceId = body.data.workspace.id;
    await expect.poll(() => heading().textContent()).toBe('Balances');
    expect(await page.locator('.banner.sandbox').textContent()).toContain('Sandbox');
    // The session is an HttpOnly cookie: the page's scripts cannot read it.
    expect(await page.evaluate('document.cookie')).toBe('');
    const cookies = await chromium.context.cookies(base);
    expect(cookies.find((c) => c.name === 'lastro_session')).toMatchObject({ httpOnly: true });
    await page.waitForLoadState('networkidle');
    await checkA11y('balances-empty');
    await shot('balances-empty');
  });

  it('turns on 2FA with the QR code, then logs in again with the code', async () => {
    await open('Security', 'Security');
    await page.getByRole('button', { name: 'Turn on two-factor authentication' }).click();
    const secret = (await page.getByTestId('totp-secret').textContent()) ?? '';
    expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
    totpSecret = secret;
    const qr = page.getByRole('img', { name: 'QR code to add Lastro to your authenticator app' });
    await expect
      .poll(() => qr.evaluate((img) => (img as unknown as { naturalWidth: number }).naturalWidth))
      .toBeGreaterThan(0);
    await checkA11y('security');
    await shot('two-factor');
    await page.getByLabel('Authenticator code').fill('000000');
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    const codeError = page
      .locator('.field', { has: page.getByLabel('Authenticator code') })
      .locator('.error');
    await expect.poll(() => codeError.textContent()).toBe('Authenticator code is wrong or has expired.');
    await page.getByLabel('Authenticator code').fill(await freshCode(secret));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page.getByText('Two-factor authentication is on.').waitFor();
    // The recovery codes, shown once: ten, each copyable and downloadable.
    const codes = await page.getByTestId('recovery-codes').locator('code').allTextContents();
    expect(codes).toHaveLength(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/);
    await checkA11y('recovery-codes');
    await shot('recovery-codes');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download codes' }).click();
    expect((await download).suggestedFilename()).toBe('lastro-recovery-codes.txt');
    await page.getByRole('button', { name: 'I saved them' }).click();
    expect(await page.getByTestId('recovery-codes').count()).toBe(0);

    // A recovery code logs in once, typed where the authenticator code goes.
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByLabel('Authenticator code or recovery code').fill(codes[0]!);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => heading().textContent()).toBe('Security');

    await page.getByRole('button', { name: 'Log out' }).click();
    await expect.poll(() => page.locator('h1').textContent()).toBe('Log in');
    await checkA11y('login');
    await shot('login');
    expect((await chromium.context.cookies(base)).find((c) => c.name === 'lastro_session')).toBeUndefined();
    await page.getByLabel('E-mail').fill(email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByLabel('Authenticator code').waitFor();
    await page.getByLabel('Authenticator code').fill(await freshCode(secret));
    await page.getByRole('button', { name: 'Log in' }).click();
    // Back where the person was, with 2FA on.
    await expect.poll(() => heading().textContent()).toBe('Security');
    await page.getByText('Two-factor authentication is on.').waitFor();
  });

  it('creates an API key shown once, and revokes another', async () => {
    await open('API keys', 'API keys');
    await checkA11y('keys-empty');
    await page.getByLabel('Name').fill('Checkout server');
    await page.getByRole('button', { name: 'Create key' }).click();
    apiKey = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(apiKey).toMatch(/^lastro_test_sk_[0-9A-Za-z]{32,}$/);
    await page.getByRole('button', { name: 'Copy', exact: true }).click();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(apiKey);
    await shot('api-key-created');
    await page.getByRole('button', { name: 'I saved it' }).click();
    expect(await page.getByTestId('new-key-secret').count()).toBe(0);
    expect(await page.locator('tbody').textContent()).toContain(`…${apiKey.slice(-4)}`);
    await withKey('/balances');

    await page.getByLabel('Name').fill('Old laptop');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByTestId('new-key-secret').waitFor();
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke key Old laptop' }).click();
    await page.locator('tr', { hasText: 'Old laptop' }).getByText('Revoked').waitFor();
    await checkA11y('keys');
    await shot('api-keys');
  });

  it('sets the settlement key, with an invalid key shown next to its field', async () => {
    await open('Settlement key', 'Settlement key');
    await page.getByText('No settlement key yet').waitFor();
    await page.getByLabel('PIX key').fill('not a pix key');
    await page.getByLabel('Holder name').fill('Café Aurora Ltda');
    await page.getByLabel('Holder CPF or CNPJ').fill(CNPJ);
    await page.getByRole('button', { name: 'Save settlement key' }).click();
    const keyError = page.locator('.field', { has: page.getByLabel('PIX key') }).locator('.error');
    await expect.poll(() => keyError.count()).toBe(1);
    await page.getByLabel('PIX key').fill('tesouraria@cafeaurora.com.br');
    await page.getByRole('button', { name: 'Save settlement key' }).click();
    await page.getByText('Settlement key saved.').waitFor();
    await checkA11y('settlement');
    await shot('settlement-key');
  });

  it('adds a webhook endpoint on a local receiver', async () => {
    await open('Webhooks', 'Webhooks');
    await page.getByLabel('URL').fill(receiver.url('/hooks'));
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent()) ?? '';
    expect(secret).toMatch(/^whsec_/);
    receiver.setSecrets('/hooks', secret);
    await page.locator('tbody tr', { hasText: '/hooks' }).getByText('Enabled').waitFor();
  });

  it('simulates a cash-in, pays out, and sees the payout completed and its webhook delivered', async () => {
    await open('Sandbox tools', 'Sandbox tools');
    await form('Simulate a PIX cash-in').getByLabel('Amount (R$)').fill('1,250.00');
    await form('Simulate a PIX cash-in').getByRole('button', { name: 'Receive money' }).click();
    await form('Simulate a PIX cash-in').getByRole('status').waitFor();
    await checkA11y('sandbox');
    await shot('sandbox-tools');

    await open('Balances', 'Balances');
    const rows = (await withKey('/balances?currency=BRL')) as { kind: string; balance_minor: string }[];
    const available = BigInt(rows.find((row) => row.kind === 'available')?.balance_minor ?? '0');
    expect(available).toBeGreaterThan(0n);
    await expect
      .poll(() => page.getByTestId('balance-BRL-available').first().textContent())
      .toBe(brlEn(available));
    await checkA11y('balances');
    await shot('balances');

    await open('PIX payout', 'PIX payout');
    await expect.poll(() => page.getByLabel('PIX key').inputValue()).toBe('tesouraria@cafeaurora.com.br');
    await page.getByLabel('Amount (R$)').fill('999999');
    await page.getByRole('button', { name: 'Send payout' }).click();
    const amountError = page.locator('.field', { has: page.getByLabel('Amount (R$)') }).locator('.error');
    await expect.poll(() => amountError.count()).toBe(1);
    await page.getByLabel('Amount (R$)').fill('300.00');
    await page.getByLabel('Description').fill('Retirada semanal');
    await checkA11y('payout');
    await page.getByRole('button', { name: 'Send payout' }).click();
    await expect.poll(() => heading().textContent()).toBe('Payment');
    const payoutId = page.url().split('/').pop() ?? '';
    await expect
      .poll(() => page.getByTestId('payment-status').textContent(), { timeout: 20_000 })
      .toBe('Completed');
    await page.locator('.timeline [data-event-type="payment.completed"]').waitFor({ timeout: 10_000 });
    await checkA11y('payment-detail');
    await shot('payout-completed');

    const delivered = await receiver.waitFor(1, '/hooks', 20_000).then(async () => {
      for (let i = 0; i < 100; i++) {
        const hit = receiver
          .received('/hooks')
          .find((r) => r.payload.type === 'payment.completed' && r.payload.data.object.id === payoutId);
        if (hit) return hit;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return undefined;
    });
    expect(delivered?.verifiedWith).toHaveLength(1);

    await open('Webhooks', 'Webhooks');
    await page.getByLabel('Event').selectOption('payment.completed');
    const row = page.locator('tr[data-event-type="payment.completed"][data-status="delivered"]').first();
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return row.count();
        },
        { timeout: 15_000 },
      )
      .toBe(1);
    expect(
      await page.locator('tbody tr[data-event-type]:not([data-event-type="payment.completed"])').count(),
    ).toBe(0);
    await checkA11y('webhooks');
    await shot('webhooks');
    const before = receiver.received('/hooks').length;
    await row.getByRole('button', { name: 'Retry' }).click();
    await receiver.waitFor(before + 1, '/hooks', 20_000);

    await open('Payments', 'Payments');
    await page.getByLabel('Kind').selectOption('pix_cash_out');
    await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
    expect(await page.locator('tbody tr').textContent()).toContain('R$300.00');
    await checkA11y('payments');
    await shot('payments');

    await open('Statement', 'Statement');
    await page.locator('tbody tr').first().waitFor();
    // The export is of a period: without its days it says so beside the field and asks the API nothing.
    await page.getByRole('button', { name: 'Export CSV' }).click();
    await page.getByText('Choose the first day to export.').waitFor();
    // The API's file, whose days are São Paulo's.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date());
    await page.getByLabel('From').fill(today);
    await page.getByLabel('To (inclusive)').fill(today);
    // The file is held once (never read back as text to count its lines) and its URL outlives the click.
    await page.evaluate(`(() => {
      const seen = { texts: 0, revokedDuringClick: 0, clicking: false };
      window.exportSeen = seen;
      const text = Blob.prototype.text;
      Blob.prototype.text = function () {
        seen.texts += 1;
        return text.call(this);
      };
      const revoke = URL.revokeObjectURL;
      URL.revokeObjectURL = (url) => {
        if (seen.clicking) seen.revokedDuringClick += 1;
        revoke(url);
      };
      const click = HTMLAnchorElement.prototype.click;
      HTMLAnchorElement.prototype.click = function () {
        seen.clicking = true;
        setTimeout(() => { seen.clicking = false; });
        click.call(this);
      };
    })()`);
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export CSV' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`lastro-statement-sandbox-${today}-to-${today}.csv`);
    const csv = await file
      .path()
      .then((path) => import('node:fs').then((fs) => fs.readFileSync(path, 'utf8')));
    expect(csv.split('\r\n')[0]).toBe(
      'posted_at,date,id,journal_id,party_id,currency,kind,direction,amount,amount_minor,reference_type,reference_id',
    );
    // The payout's amount and its R$ 1,00 fee leave the available balance; the cash-in arrived whole.
    expect(csv).toContain(',BRL,available,debit,301.00,30100,payment,');
    expect(csv).toContain(',BRL,available,credit,1250.00,125000,payment,');
    expect(csv).toContain(`,${today},`);
    await page.getByText('CSV file downloaded.').waitFor();
    expect(await page.evaluate('window.exportSeen')).toMatchObject({
      texts: 0,
      revokedDuringClick: 0,
    });
    await checkA11y('statement');
    await shot('statement');
  });

  it('creates a payment link with a split; a buyer pays it on the hosted checkout', async () => {
    await open('Customers', 'Customers');
    await page.getByLabel('Name', { exact: true }).fill('Bia Souza');
    await page.getByLabel('Document number').fill(CPF);
    await page.getByRole('button', { name: 'Add customer' }).click();
    await page.getByRole('link', { name: 'Bia Souza' }).waitFor();
    await checkA11y('customers');

    await open('Payment links', 'Payment links');
    await page.getByLabel('Title').fill('Café especial 500 g');
    await page.getByLabel('Amount (R$)').fill('49.90');
    await page.getByRole('button', { name: 'Create link' }).click();
    const linkRow = page.locator('tbody tr', { hasText: 'Café especial 500 g' });
    await linkRow.waitFor();
    expect(await linkRow.textContent()).toContain('R$49.90');
    await linkRow.getByRole('button', { name: 'Splits' }).click();
    await page.getByLabel('Recipient').selectOption({ label: 'Bia Souza' });
    await page.getByLabel('Share (%)').fill('10');
    await page.getByRole('button', { name: 'Add split' }).click();
    await page.getByText('Bia Souza: 10%').waitFor();
    await checkA11y('links');
    await shot('payment-links');

    // The link is absolute, on the server's public base URL: the buyer opens its path here.
    const hosted = new URL((await linkRow.getByRole('link').getAttribute('href')) ?? '', base).pathname;
    expect(hosted).toMatch(/^\/pay\/[a-z0-9-]+$/);
    const buyer = await chromium.context.newPage();
    const buyerProblems = watchProblems(buyer);
    await buyer.goto(`${base}${hosted}`);
    await buyer.getByLabel('Full name').fill('Maria Oliveira');
    await buyer.getByLabel('CPF or CNPJ').fill('529.982.247-25');
    await buyer.getByRole('button', { name: 'Get PIX code' }).click();
    await buyer.locator('#result').waitFor({ state: 'visible' });

    await open('Sandbox tools', 'Sandbox tools');
    const charge = page.locator('.rows li', { hasText: 'R$49.90' });
    await charge.getByRole('button', { name: 'Pay as the buyer' }).click();
    await buyer.locator('#status[data-state="completed"]').waitFor({ timeout: 20_000 });
    await buyer.close();
    expect(buyerProblems).toEqual([]);

    await open('Balances', 'Balances');
    const bia = page.locator('tbody tr', { hasText: 'Bia Souza' }).filter({ hasText: 'BRL' });
    await expect.poll(() => bia.getByTestId('balance-BRL-available').textContent()).not.toBe('R$0.00');

    // The checkout payment's page: payer, end-to-end id, link, the split as paid, a refund.
    await open('Payments', 'Payments');
    await page.getByLabel('Kind').selectOption('pix_cash_in');
    await page.locator('tbody tr', { hasText: 'R$49.90' }).first().getByRole('link').click();
    await expect.poll(() => heading().textContent()).toBe('Payment');
    await expect.poll(() => page.getByTestId('payer').textContent()).toContain('Maria Oliveira');
    expect(await page.getByTestId('payer').textContent()).not.toContain('52998224725');
    await expect.poll(() => page.getByTestId('end-to-end-id').textContent()).not.toBe('Not settled yet');
    await page.getByTestId('split-breakdown').getByText('Bia Souza').waitFor({ timeout: 15_000 });
    await page.getByTestId('payment-link').getByText('Café especial 500 g').waitFor();
    await page.getByRole('button', { name: 'Refund payment' }).waitFor();
    await checkA11y('checkout-payment');
    await shot('checkout-payment');
  });

  it('sends crypto with the authenticator code, and converts with a quote before it expires', async () => {
    await open('Wallets and crypto', 'Wallets and crypto');
    await form('Create a wallet').getByLabel('Name').fill('Tesouraria USDT');
    await form('Create a wallet').getByRole('button', { name: 'Create wallet' }).click();
    const walletRow = page.locator('tbody tr', { hasText: 'Tesouraria USDT' }).first();
    await walletRow.waitFor();
    expect(await walletRow.locator('code').textContent()).toMatch(/^0x[0-9a-fA-F]{40}$/);
    const deposit = form('Simulate a deposit');
    await deposit.getByLabel('Wallet').selectOption({ index: 1 });
    await deposit.getByLabel('Amount').fill('100.000000');
    await deposit.getByRole('button', { name: 'Deposit' }).click();
    await deposit.getByText('Deposit received.').waitFor();

    const send = form('Send crypto');
    await send.getByLabel('Destination address').fill('0x52908400098527886E0F7030069857D2E4169EE7');
    await send.getByLabel('Amount').fill('12.5');
    await send.getByRole('button', { name: 'Send' }).click();
    // 2FA is on: no code, no call; a wrong code is the server's otp_invalid, next to the field.
    const otpError = send.locator('.field', { has: page.getByLabel('Authenticator code') }).locator('.error');
    await expect
      .poll(() => otpError.textContent())
      .toBe('Enter the 6-digit code from your authenticator app.');
    const wrong = generateSync({ secret: totpSecret, epoch: Math.floor(Date.now() / 1000) - 600 });
    await send.getByLabel('Authenticator code').fill(wrong);
    await send.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => otpError.textContent()).toBe('Authenticator code is wrong or has expired.');
    await send.getByLabel('Authenticator code').fill(await freshCode(totpSecret));
    await checkA11y('wallets');
    await shot('wallets');
    await send.getByRole('button', { name: 'Send' }).click();
    await expect.poll(() => heading().textContent()).toBe('Payment');
    await expect
      .poll(() => page.getByTestId('payment-status').textContent(), { timeout: 20_000 })
      .toBe('Completed');
    expect(await page.locator('.facts').textContent()).toContain('12.500000 USDT');

    await open('Convert (RFQ)', 'Convert (RFQ)');
    await page.getByLabel('You pay in').selectOption('BRL');
    await page.getByLabel('You receive in').selectOption('USDT');
    await page.getByLabel('Amount to pay').fill('100.00');
    await page.getByRole('button', { name: 'Get quote' }).click();
    await expect.poll(() => page.getByRole('timer').textContent()).toMatch(/^Expires in \d+ s$/);
    const first = Number((await page.getByRole('timer').textContent())?.match(/\d+/)?.[0]);
    await expect
      .poll(async () => Number((await page.getByRole('timer').textContent())?.match(/\d+/)?.[0]))
      .toBeLessThan(first);
    await checkA11y('rfq');
    await shot('rfq-quote');
    await page.getByRole('button', { name: 'Execute' }).click();
    await expect.poll(() => heading().textContent()).toBe('Payment');
    await expect
      .poll(() => page.getByTestId('payment-status').textContent(), { timeout: 20_000 })
      .toBe('Completed');
    expect(await page.locator('.facts').textContent()).toContain('Conversion');
  });

  it('acts on a sub-account: the money pages become its own', async () => {
    await open('Sub-accounts', 'Sub-accounts');
    await page.getByLabel('Name', { exact: true }).fill('Filial Centro');
    await page.getByRole('button', { name: 'Create sub-account' }).click();
    const row = page.locator('tbody tr', { hasText: 'Filial Centro' });
    await row.getByRole('button', { name: 'Act on it' }).click();
    await page.locator('.banner.acting', { hasText: 'Filial Centro' }).waitFor();
    await open('Balances', 'Balances');
    // A new sub-account holds nothing: its own ledger, not the parent's R$ 1.250,00.
    await expect.poll(() => page.getByTestId('balance-BRL-available').first().textContent()).toBe('R$0.00');
    await checkA11y('acting');
    await page.getByRole('button', { name: 'Stop acting' }).click();
    await expect
      .poll(() => page.getByTestId('balance-BRL-available').first().textContent())
      .not.toBe('R$0.00');
  });

  /** The workspace's sandbox day (São Paulo, UTC−3) plus `days`, as YYYY-MM-DD. */
  async function sandboxDay(days: number) {
    const clock = (await withKey('/test-clock')) as { now: string };
    return new Date(Date.parse(clock.now) - 3 * 3_600_000 + days * 86_400_000).toISOString().slice(0, 10);
  }

  it('creates a due-date charge through the form, lists its amount due today, and cancels it', async () => {
    await open('Due-date charges', 'Due-date charges');
    const create = form('Create a due-date charge');
    await create.getByLabel('Debtor name').fill('Francisco da Silva');
    await create.getByLabel('Debtor CPF or CNPJ').fill('123.456.789-00');
    await create.getByLabel('Amount (R$)').fill('150.00');
    await create.getByLabel('Due date').fill(await sandboxDay(10));
    await create.getByLabel('Fine (%)').fill('2');
    await create.getByLabel('Interest (% a month)').fill('1');
    await create.getByLabel('Discount (R$)').fill('10.00');
    await create.getByRole('button', { name: 'Create charge' }).click();
    // The API's refusal lands next to the field it names (body.debtor.document).
    await create.getByText('Debtor CPF or CNPJ not a valid CPF or CNPJ.').waitFor();
    await create.getByLabel('Debtor CPF or CNPJ').fill(CPF);
    await create.getByRole('button', { name: 'Create charge' }).click();
    await create.getByText('Charge created.').waitFor();
    // Paid today, before the due date: R$ 150,00 less the R$ 10,00 discount.
    const row = page.locator('tbody tr', { hasText: 'Francisco da Silva' });
    await expect
      .poll(() => row.locator('td').allTextContents())
      .toEqual([expect.any(String), 'Waiting', 'Francisco da Silva', brlEn(15000n), brlEn(14000n)]);
    await checkA11y('due-charges');
    await shot('due-charges');
    await row.getByRole('link').click();
    await expect.poll(() => heading().textContent()).toBe('Due-date charge');
    expect(await page.getByTestId('amount-due-today').textContent()).toContain(brlEn(14000n));
    expect(await page.getByTestId('due-charge-brcode').textContent()).toMatch(/^000201/);
    await shot('due-charge-detail');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Cancel charge' }).click();
    await expect.poll(() => page.getByTestId('due-charge-status').textContent()).toBe('Cancelled');
  });

  it('creates a subscription, authorises it in sandbox, advances the clock to a paid cycle, cancels', async () => {
    await open('Subscriptions', 'Subscriptions');
    const create = form('Create a subscription');
    await create.getByLabel('Payer name').fill('Fulano de Tal');
    await create.getByLabel('Payer CPF or CNPJ').fill(CPF);
    await create.getByLabel('Amount of each cycle (R$)').fill('35.00');
    await create.getByLabel('First due date').fill(await sandboxDay(7));
    await create.getByRole('button', { name: 'Create subscription' }).click();
    await create.getByText('Subscription created: the payer now authorises it at their bank.').waitFor();
    const row = page.locator('tbody tr', { hasText: 'Fulano de Tal' });
    await row.getByText('Awaiting the payer’s authorisation').waitFor();
    await row.getByRole('link', { name: 'Fulano de Tal' }).click();
    await expect.poll(() => heading().textContent()).toBe('Subscription');
    await page.getByRole('button', { name: 'Payer authorises' }).click();
    await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe('Active');
    const clock = form('Test clock');
    await clock.getByLabel('How much').fill('1');
    await clock.getByLabel('Unit').selectOption('months');
    await clock.getByRole('button', { name: 'Advance the clock' }).click();
    await clock.getByText('Clock advanced; the cycles due ran.').waitFor();
    const first = page.locator('tr[data-cycle="1"]');
    await expect
      .poll(() => first.locator('td').allTextContents())
      .toEqual(['1', expect.any(String), brlEn(3500n), 'Paid', '1', '—']);
    expect(await page.getByTestId('cycles-paid').textContent()).toBe('1');
    await checkA11y('subscription');
    await shot('subscriptions');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Cancel subscription' }).click();
    await expect.poll(() => page.getByTestId('subscription-status').textContent()).toBe('Cancelled');
  });

  it('on a phone (390×844): a menu button, no page wider than the screen, axe clean', async () => {
    const desktop = page.viewportSize();
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.locale select').selectOption('pt-BR');
    const links = await page
      .locator('nav a')
      .evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href') ?? ''));
    expect(links.length).toBeGreaterThanOrEqual(14);
    // The sections fold behind the menu button, and fold again once one is chosen.
    const firstLink = page.getByRole('navigation').getByRole('link').first();
    expect(await firstLink.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Menu' }).click();
    expect(await firstLink.isVisible()).toBe(true);
    await page.getByRole('navigation').getByRole('link', { name: 'Pagamentos', exact: true }).click();
    await expect.poll(() => heading().textContent()).toBe('Pagamentos');
    expect(await firstLink.isVisible()).toBe(false);

    const wide: string[] = [];
    // In Portuguese, with the payments, links, keys and the rest the walk made: no English shows.
    const english: string[] = [];
    for (const link of links) {
      await page.goto(`${base}${link}`);
      await heading().waitFor();
      await page.waitForLoadState('networkidle');
      const name = link.replace(/^\/dashboard\/?/, '').replaceAll('/', '-') || 'balances';
      const width = await page.evaluate('document.documentElement.scrollWidth');
      if (Number(width) > 390) wide.push(`${name}: ${width}`);
      english.push(...(await untranslatedEnglish(page, name)));
      await checkA11y(`${name}-phone`);
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}-phone.png`), fullPage: true });
    }
    expect({ wide, english }).toEqual({ wide: [], english: [] });
    await page.locator('.locale select').selectOption('en');
    if (desktop) await page.setViewportSize(desktop);
  });

  it('shows the remaining pages without serious accessibility violations', async () => {
    for (const [section, title] of [
      ['Crypto whitelist', 'Crypto whitelist'],
      ['Sub-accounts', 'Sub-accounts'],
    ] as const) {
      await open(section, title);
      await checkA11y(title);
    }
    await page.getByRole('button', { name: 'Live' }).click();
    await page.locator('.banner.live').waitFor();
    await open('Security', 'Security');
    await shot('live-security');
    await page.getByRole('button', { name: 'Enable production' }).click();
    await page.getByText('Production enabled.').waitFor();
    await page.getByText('Production is enabled: live keys work.').waitFor();
    await open('API keys', 'API keys');
    await page.getByLabel('Name').fill('Live checkout');
    await page.getByRole('button', { name: 'Create key' }).click();
    const liveKey = (await page.getByTestId('new-key-secret').textContent()) ?? '';
    expect(liveKey).toMatch(/^lastro_live_sk_/);
    const live = await fetch(`${base}/v1/live/balances`, {
      headers: { authorization: `Bearer ${liveKey}`, 'x-workspace-id': workspaceId },
    });
    expect(live.status).toBe(200);
    await page.getByRole('button', { name: 'Sandbox' }).click();
    await page.locator('.locale select').selectOption('pt-BR');
    await open('Saldos', 'Saldos');
    await checkA11y('balances-pt');
    await shot('balances-pt');

    const serious = Object.entries(axeFindings).filter(([, findings]) => findings.length);
    expect(serious).toEqual([]);
    expect(Object.keys(axeFindings).length).toBeGreaterThanOrEqual(15);
    expect(problems).toEqual([]);
  });
});
