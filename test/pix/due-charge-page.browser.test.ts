/**
 * A due-date charge's hosted page in a real browser: Debian's chromium driven by playwright-core
 * (test/dashboard/browser-support.ts), on a phone-sized viewport, against the server listening on
 * 127.0.0.1. The debtor opens the checkout_url three days late and sees the amount due today with
 * its fine and interest, the QR image and the copy-paste code, copies it, and nothing breaks the
 * page's CSP. The screenshot goes to test-artifacts/checkout/due-charge.png (docs/checkout/ holds a
 * copy). Without /usr/bin/chromium the test is skipped outside CI, and fails in CI.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Chromium,
  canRunBrowser,
  launchChromium,
  seriousAxeViolations,
  untranslatedEnglish,
  watchProblems,
} from '../dashboard/browser-support.ts';
import { startWorld, type World } from '../support/world.ts';
import { advanceDays, createDue, spDate } from './due-charges-support.ts';

const ARTIFACTS = path.resolve(import.meta.dirname, '../../test-artifacts/checkout');

describe.skipIf(!canRunBrowser)('a due-date charge’s page in chromium', () => {
  let world: World;
  let base: string;
  let chromium: Chromium;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    world = await startWorld();
    base = await world.app.listen({ host: '127.0.0.1', port: 0 });
    chromium = await launchChromium({ locale: 'pt-BR', origin: base });
  });
  afterAll(async () => {
    await chromium?.close();
    await world?.close();
  });

  it('three days late, the debtor sees the fine and interest, the QR and the code, and copies it', async () => {
    const ws = await world.workspace('Escola Sabiá');
    const charge = await createDue(ws.api, {
      amount_minor: '25000',
      due_date: spDate(5),
      description: 'Mensalidade de dezembro',
      fine: { modality: 2, percent: '2.00' },
      interest: { modality: 3, percent: '1.00' },
      rebate: { modality: 1, value_minor: '1000' },
    });
    await advanceDays(ws.api, 8);
    const page = await chromium.context.newPage();
    await page.setViewportSize({ width: 390, height: 844 });
    const problems = watchProblems(page);
    const answer = await page.goto(`${base}${new URL(charge.checkout_url).pathname}`);
    expect(answer?.status()).toBe(200);

    expect(await page.locator('h1').textContent()).toBe('Mensalidade de dezembro');
    expect(await page.locator('#merchant-name').textContent()).toBe('Escola Sabiá');
    expect(await page.locator('#test-mark').isVisible()).toBe(true);
    // 250.00 + 2 % fine (5.00) + 1 % a month for 3 days (0.25) − 10.00 rebate.
    expect(await page.locator('#amount-due').textContent()).toBe('R$ 245,25');
    expect(await page.locator('#part-fine td').textContent()).toBe('+ R$ 5,00');
    expect(await page.locator('#part-interest td').textContent()).toBe('+ R$ 0,25');
    expect(await page.locator('#part-rebate td').textContent()).toBe('− R$ 10,00');
    expect(await page.locator('#debtor-document').textContent()).toBe('CPF *********25');
    expect(await page.evaluate("document.getElementById('qr').naturalWidth")).toBeGreaterThan(0);
    expect(await page.locator('#brcode').inputValue()).toBe(charge.pix_qr_code);

    await page.locator('#copy').click();
    await expect.poll(() => page.locator('#copy-status').textContent()).toBe('Código copiado.');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(charge.pix_qr_code);

    await page.screenshot({ path: path.join(ARTIFACTS, 'due-charge.png'), fullPage: true });
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(await untranslatedEnglish(page, 'due-charge')).toEqual([]);
    expect(problems).toEqual([]);

    // What the page showed is what paying today credits.
    const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
    expect(paid.json().data.amount_minor).toBe('24525');
    await page.reload();
    expect(await page.locator('#status').textContent()).toBe('Pagamento confirmado. Obrigado!');
    expect(await page.locator('#qr').count()).toBe(0);
  });
});
