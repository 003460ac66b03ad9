/**
 * The hosted checkout in a real browser: Debian's chromium driven by playwright-core, on a phone-sized
 * viewport, against the real server listening on 127.0.0.1. A buyer fills the form by keyboard, sees
 * the QR code and the copy-paste code, the payment is paid through the sandbox helper, and the page
 * says so. Screenshots of each state go to test-artifacts/checkout/ (docs/checkout/ holds a copy).
 * Without /usr/bin/chromium the test is skipped outside CI, and fails in CI.
 */
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { maskDocument } from '../../src/providers/pix/keys.ts';
import { startTestApp, type TestContext } from '../support/app.ts';
import { CPF, type LinksWorkspace, linksWorkspace } from './support.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/checkout');
const canRun = existsSync(CHROMIUM) || Boolean(process.env.CI);
if (!canRun)
  console.warn(`browser test skipped: ${CHROMIUM} is absent (apt-get install -y chromium); CI installs it`);

const PHONE = { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true };

describe.skipIf(!canRun)('hosted checkout in chromium', () => {
  let ctx: TestContext;
  let ws: LinksWorkspace;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    ctx = await startTestApp();
    ws = await linksWorkspace(ctx, 'Café Aurora');
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  /** A phone page that records console errors and CSP violations, which must not happen. */
  async function phonePage(locale: string): Promise<{ page: Page; problems: string[] }> {
    const context = await browser.newContext({ ...PHONE, locale });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return { page, problems };
  }

  const shot = (page: Page, name: string) =>
    page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`), fullPage: true });

  async function payThroughSandbox(paymentId: string) {
    const res = await fetch(`${base}/v1/sandbox/simulate/payments/${paymentId}/pay`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ws.apiKey}`,
        'x-workspace-id': ws.owner.workspaceId,
        'content-type': 'application/json',
      },
      body: '{}',
    });
    expect(res.status).toBe(200);
  }

  it('a buyer pays a fixed-amount link by keyboard and sees it paid (pt-BR)', async () => {
    const link = await ws.createLink({
      amount_minor: '4990',
      title: 'Café especial 500 g',
      description: 'Grãos torrados esta semana. Entrega em até 3 dias úteis.',
      design: { brand_color: '#6d3b1f', background_color: '#f7efe6' },
    });
    const { page, problems } = await phonePage('pt-BR');
    await page.goto(`${base}/pay/${link.slug}`);
    await expect.poll(() => page.locator('h1').textContent()).toBe('Café especial 500 g');
    expect(await page.locator('#amount-display').textContent()).toBe('R$ 49,90');
    // Whom the buyer pays, and that nothing paid on a sandbox page is real money.
    expect(await page.locator('#merchant-name').textContent()).toBe('Café Aurora');
    expect(await page.locator('header.brand p').first().textContent()).toBe(
      'Pagamento via PIX para Café Aurora',
    );
    expect(await page.locator('#test-mark').isVisible()).toBe(true);
    expect(await page.locator('#test-mark').textContent()).toContain('Ambiente de teste');
    await shot(page, 'form');

    // Submitting empty shows each field's error, tied to it, and moves focus to the first.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('payer-name');
    await page.keyboard.press('Enter');
    await page.locator('#payer-name-error').waitFor({ state: 'visible' });
    expect(await page.locator('#payer-name').getAttribute('aria-invalid')).toBe('true');
    // An empty document is asked for, not called invalid; a wrong one is.
    expect(await page.locator('#payer-document-error').textContent()).toBe('Informe o CPF ou CNPJ.');
    await page.locator('#payer-document').fill('529.982.247-24');
    await page.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('#payer-document-error').textContent())
      .toContain('CPF ou CNPJ inválido');
    await shot(page, 'errors');

    // Keyboard only: name, Tab, document, Enter.
    await page.locator('#payer-name').focus();
    await page.keyboard.type('Maria Oliveira');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Control+A');
    await page.keyboard.type('529.982.247-25');
    const answered = page.waitForResponse((res) => res.url().endsWith('/checkout'), { timeout: 10_000 });
    await page.keyboard.press('Enter');
    const charge = (await (await answered).json()).data as { id: string; pix_qr_code: string };

    await page.locator('#result').waitFor({ state: 'visible' });
    expect(await page.locator('#checkout-form').isHidden()).toBe(true);
    expect(await page.locator('#qr').getAttribute('src')).toMatch(/^data:image\/png;base64,/);
    expect(await page.evaluate("document.getElementById('qr').naturalWidth")).toBeGreaterThan(0);
    expect(await page.locator('#brcode').inputValue()).toBe(charge.pix_qr_code);
    expect(charge.pix_qr_code).toMatch(/^000201/);
    expect(await page.locator('#status').textContent()).toBe('Aguardando o pagamento…');
    await page.locator('#copy').click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Código copiado.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(charge.pix_qr_code);
    await shot(page, 'qr');

    await payThroughSandbox(charge.id);
    await page.locator('#status[data-state="completed"]').waitFor({ timeout: 20_000 });
    expect(await page.locator('#status').textContent()).toBe('Pagamento confirmado. Obrigado!');
    await shot(page, 'paid');

    const payment = (await ws.api.get(`/v1/sandbox/payments/${charge.id}`)).json().data;
    expect(payment).toMatchObject({ status: 'completed', amount_minor: '4990' });
    // The payment keeps the payer's document masked; the checkout record seals the whole one.
    expect(payment.counterparty).toMatchObject({ name: 'Maria Oliveira', document: maskDocument(CPF) });
    expect(problems).toEqual([]);
  });

  it('an open-amount link in English takes the buyer’s amount', async () => {
    const link = await ws.createLink({
      allow_custom_amount: true,
      title: 'Tip jar',
      description: 'Thank you for supporting the café!',
    });
    const { page, problems } = await phonePage('en-US');
    await page.goto(`${base}/pay/${link.slug}`);
    expect(await page.locator('html').getAttribute('lang')).toBe('en');
    expect(await page.locator('#test-mark').textContent()).toContain('Test environment');
    await page.getByRole('button', { name: 'Get PIX code' }).click();
    expect(await page.locator('#payer-document-error').textContent()).toBe('Enter the CPF or CNPJ.');
    await page.getByLabel('Amount (R$)').fill('1,234.50', { timeout: 5000 });
    await page.getByLabel('Full name').fill('Alex Doe');
    await page.getByLabel('CPF or CNPJ').fill('11.222.333/0001-81');
    const answered = page.waitForResponse((res) => res.url().endsWith('/checkout'), { timeout: 10_000 });
    await page.getByRole('button', { name: 'Get PIX code' }).click();
    const charge = (await (await answered).json()).data as { amount_minor: string };
    expect(charge.amount_minor).toBe('123450');
    await page.locator('#result').waitFor({ state: 'visible' });
    expect(await page.locator('#status').textContent()).toBe('Waiting for the payment…');
    await shot(page, 'open-amount-en');
    expect(problems).toEqual([]);
  });

  it('a pay whose answer is lost, sent again, gets the same charge and makes no second one', async () => {
    const link = await ws.createLink({ amount_minor: '1500', title: 'Pão de queijo' });
    const { page, problems } = await phonePage('pt-BR');
    const keys: string[] = [];
    let lost = false;
    // The first answer is lost on the way back (the charge is made on the server); the rest arrive.
    await page.route('**/checkout', async (route) => {
      keys.push(route.request().headers()['idempotency-key'] ?? '');
      const response = await route.fetch();
      if (lost) return route.fulfill({ response });
      lost = true;
      return route.abort('connectionreset');
    });
    await page.goto(`${base}/pay/${link.slug}`);
    await page.locator('#payer-name').fill('Rita Alves');
    await page.locator('#payer-document').fill(CPF);
    await page.locator('#submit').click();
    await page.locator('#form-error').waitFor({ state: 'visible' });
    const answered = page.waitForResponse((res) => res.url().endsWith('/checkout'), { timeout: 10_000 });
    await page.locator('#submit').click();
    const replay = await answered;
    expect(replay.headers()['idempotency-replayed']).toBe('true');
    await page.locator('#result').waitFor({ state: 'visible' });

    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^[0-9a-f]{32}$/);
    expect(keys[1]).toBe(keys[0]);
    const { rows } = await ctx.db.query('SELECT 1 FROM payment_link_payments WHERE payment_link_id = $1', [
      link.id,
    ]);
    expect(rows).toHaveLength(1);
    expect((problems as string[]).filter((p) => !/ERR_CONNECTION_RESET|Failed to load/.test(p))).toEqual([]);
  });

  it('an inactive link shows a clear page with no form', async () => {
    const link = await ws.createLink({ amount_minor: '100', title: 'Promoção de verão' });
    await ws.api.patch(`/v1/sandbox/payment-links/${link.id}`, { status: 'inactive' });
    const { page, problems } = await phonePage('pt-BR');
    const res = await page.goto(`${base}/pay/${link.slug}`);
    expect(res?.status()).toBe(410);
    expect(await page.locator('h1').textContent()).toBe('Link indisponível');
    expect(await page.locator('form').count()).toBe(0);
    await shot(page, 'unavailable');
    // The browser reports the 410 itself; nothing else may go wrong.
    expect(problems.filter((text) => !text.includes('status of 410'))).toEqual([]);
  });
});
