/**
 * A due-date charge's hosted page over HTTP (GET /pay/due/{token}, the charge's checkout_url): the
 * amount due on the sandbox clock's day, part by part, is the one paying it credits; late it adds the
 * fine and interest; past its last payable day or cancelled it can no longer be paid and shows no
 * code; paid, it says so; a token that names no charge is a 404 page; every answer carries the
 * locked-down headers.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startWorld, type Workspace } from '../support/world.ts';
import { advanceDays, createDue, DUE, spDate } from './due-charges-support.ts';

const world = await startWorld();
afterAll(() => world.close());

/** R$ 100.00 due in 10 days: 2 % fine, 3 % a month interest, R$ 5.00 off until day 5, R$ 1.00 rebate. */
const terms = (extra: Record<string, unknown> = {}) => ({
  amount_minor: '10000',
  due_date: spDate(10),
  days_valid_after_due: 30,
  fine: { modality: 2, percent: '2.00' },
  interest: { modality: 3, percent: '3.00' },
  rebate: { modality: 1, value_minor: '100' },
  discount: { modality: 1, dates: [{ date: spDate(5), value_minor: '500' }] },
  ...extra,
});

const page = (url: string, headers: Record<string, string> = {}) =>
  world.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search, headers });

/** The text of the element with this id (tags stripped), or undefined when the page has none. */
function textOf(body: string, id: string): string | undefined {
  const match = new RegExp(`<(\\w+)[^>]* id="${id}"[^>]*>([\\s\\S]*?)</\\1>`).exec(body);
  return match?.[2]
    ?.replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

async function shopWithCharge(extra: Record<string, unknown> = {}) {
  const ws: Workspace = await world.workspace('Escola Sabiá');
  const charge = await createDue(ws.api, terms(extra));
  return { ws, charge };
}

const HEADERS = {
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'cross-origin-opener-policy': 'same-origin',
};

describe('the hosted page of a due-date charge', () => {
  it('before the due date it shows the discounted amount, part by part, and paying credits that amount', async () => {
    const { ws, charge } = await shopWithCharge();
    expect(charge.checkout_url).toMatch(/^http:\/\/.+\/pay\/due\/[A-Za-z0-9_-]{64}$/);
    expect(charge.checkout_url).not.toContain(charge.id);
    expect((await ws.api.get(`${DUE}/${charge.id}`)).json().data.checkout_url).toBe(charge.checkout_url);

    const res = await page(charge.checkout_url);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(textOf(res.body, 'merchant-name')).toBe('Escola Sabiá');
    expect(res.body).toContain('id="test-mark"');
    expect(textOf(res.body, 'amount-due')).toBe('R$ 94,00');
    expect(textOf(res.body, 'part-original')).toBe('Valor original R$ 100,00');
    expect(textOf(res.body, 'part-rebate')).toBe('Abatimento − R$ 1,00');
    expect(textOf(res.body, 'part-discount')).toBe('Desconto por pagamento antecipado − R$ 5,00');
    expect(textOf(res.body, 'part-fine')).toBeUndefined();
    expect(textOf(res.body, 'part-total')).toBe('Total hoje R$ 94,00');
    const [year, month, day] = spDate(10).split('-');
    expect(textOf(res.body, 'due-date')).toBe(`${day}/${month}/${year}`);
    // The debtor's name, and the document masked as the API masks it: never the whole of it.
    expect(textOf(res.body, 'debtor')).toBe('Francisco da Silva CPF *********25');
    expect(res.body).not.toMatch(/52998224725|529\.982\.247-25/);
    expect(res.body).toMatch(/<img class="qr" id="qr" [^>]*src="data:image\/png;base64,/);
    expect(textOf(res.body, 'brcode')).toBe(charge.pix_qr_code.replace(/&/g, '&amp;'));

    const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
    expect(paid.statusCode, paid.body).toBe(200);
    expect(paid.json().data.amount_minor).toBe('9400');
    expect(await ws.balances()).toMatchObject({ available: '9400' });
  });

  it('after the sandbox clock passes the due date it shows the fine and the interest (in English too)', async () => {
    const { ws, charge } = await shopWithCharge();
    await advanceDays(ws.api, 17);
    const res = await page(charge.checkout_url);
    expect(res.statusCode).toBe(200);
    expect(textOf(res.body, 'amount-due')).toBe('R$ 101,70');
    expect(textOf(res.body, 'part-fine')).toBe('Multa por atraso + R$ 2,00');
    expect(textOf(res.body, 'part-interest')).toBe('Juros + R$ 0,70');
    expect(textOf(res.body, 'part-discount')).toBeUndefined();
    expect(textOf(res.body, 'today')).toBe(spDate(17).split('-').reverse().join('/'));
    const en = await page(`${charge.checkout_url}?lang=en`, { 'accept-language': 'pt-BR' });
    expect(en.body).toContain('<html lang="en">');
    expect(textOf(en.body, 'amount-due')).toBe('R$101.70');
    expect(textOf(en.body, 'part-fine')).toBe('Late fine + R$2.00');
    expect(en.body).toContain('Test environment: no real money is charged.');
    const byHeader = await page(charge.checkout_url, { 'accept-language': 'en-US,en;q=0.9' });
    expect(textOf(byHeader.body, 'amount-due')).toBe('R$101.70');
    // What the page showed is what paying today credits.
    const paid = await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
    expect(paid.json().data.amount_minor).toBe('10170');
  });

  it('past due_date + days_valid_after_due it says it can no longer be paid, with no code and no script', async () => {
    const { ws, charge } = await shopWithCharge({ days_valid_after_due: 5 });
    await advanceDays(ws.api, 16);
    const res = await page(charge.checkout_url);
    expect(res.statusCode).toBe(410);
    expect(textOf(res.body, 'status')).toBe('Esta cobrança venceu e não pode mais ser paga.');
    expect(textOf(res.body, 'original-amount')).toBe('R$ 100,00');
    expect(res.body).not.toContain('id="qr"');
    expect(res.body).not.toContain('id="brcode"');
    expect(res.body).not.toContain(charge.pix_qr_code.replace(/&/g, '&amp;'));
    expect(res.body).not.toContain('<script');
    expect(res.headers['content-security-policy']).not.toContain('script-src');
  });

  it('once paid it says so, with the amount paid and no code', async () => {
    const { ws, charge } = await shopWithCharge();
    await advanceDays(ws.api, 10);
    await ws.api.post(`/v1/sandbox/simulate/payments/${charge.id}/pay`);
    const res = await page(charge.checkout_url);
    expect(res.statusCode).toBe(200);
    expect(textOf(res.body, 'status')).toBe('Pagamento confirmado. Obrigado!');
    expect(textOf(res.body, 'amount-paid')).toBe('R$ 99,00');
    expect(res.body).not.toContain('id="qr"');
    expect(res.body).not.toContain('<script');
  });

  it('cancelled by its receiver it says so, with no code, and the page stays at the same address', async () => {
    const { ws, charge } = await shopWithCharge();
    const cancelled = await ws.api.patch(`${DUE}/${charge.id}`, { status: 'cancelled' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().data.checkout_url).toBe(charge.checkout_url);
    const res = await page(charge.checkout_url, { 'accept-language': 'en' });
    expect(res.statusCode).toBe(410);
    expect(textOf(res.body, 'status')).toBe(
      'This bill was cancelled by whoever issued it and can no longer be paid.',
    );
    expect(res.body).not.toContain('id="qr"');
    expect(res.body).not.toContain('<script');
  });

  it('a token that names no charge is a 404 page with the locked-down headers, whatever was changed', async () => {
    const { charge } = await shopWithCharge();
    const token = new URL(charge.checkout_url).pathname.split('/').pop()!;
    const flipped = `${token.slice(0, 40)}${token[40] === 'A' ? 'B' : 'A'}${token.slice(41)}`;
    const tails = [flipped, 'A'.repeat(64), charge.id, 'nothing-here'];
    for (const tail of tails) {
      const res = await world.app.inject({ method: 'GET', url: `/pay/due/${tail}` });
      expect(res.statusCode, tail).toBe(404);
      expect(res.headers).toMatchObject(HEADERS);
      const csp = String(res.headers['content-security-policy']);
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain('script-src');
      expect(textOf(res.body, 'unavailable-reason')).toBe(
        'Esta cobrança não existe. Confira o endereço com quem o enviou.',
      );
      expect(res.body).not.toContain('Escola Sabiá');
    }
  });

  it('an address under /pay/due that no route takes is a 404 with the locked-down headers too', async () => {
    const { charge } = await shopWithCharge();
    const token = new URL(charge.checkout_url).pathname.split('/').pop()!;
    // Longer than the router takes for a parameter, or with a segment more: no route matches.
    for (const tail of [`${token}${token}`, `${token}/more`]) {
      const res = await world.app.inject({ method: 'GET', url: `/pay/due/${tail}` });
      expect(res.statusCode, tail).toBe(404);
      expect(res.headers, tail).toMatchObject(HEADERS);
      expect(String(res.headers['content-security-policy'])).toBe(
        "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
      );
    }
  });

  it("the page's CSP allows only its own nonce-bearing style and script, and it carries the security headers", async () => {
    const { charge } = await shopWithCharge();
    const res = await page(charge.checkout_url);
    expect(res.headers).toMatchObject({ ...HEADERS, vary: 'Accept-Language' });
    const csp = String(res.headers['content-security-policy']);
    const nonce = /script-src 'nonce-([A-Za-z0-9+/=]+)'/.exec(csp)?.[1];
    expect(nonce).toBeDefined();
    expect(csp.split('; ').sort()).toEqual(
      [
        "default-src 'none'",
        `script-src 'nonce-${nonce}'`,
        `style-src 'nonce-${nonce}'`,
        'img-src data:',
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
      ].sort(),
    );
    // Every script and style of the page bears the nonce; nothing is loaded from elsewhere.
    expect(res.body.match(/<script/g)).toHaveLength(1);
    expect(res.body).toContain(`<script nonce="${nonce}">`);
    expect(res.body).toContain(`<style nonce="${nonce}">`);
    expect(res.body).not.toMatch(/ (src|href)="(?!data:)/);
    // A new nonce for each answer.
    expect((await page(charge.checkout_url)).headers['content-security-policy']).not.toContain(nonce);
  });
});
