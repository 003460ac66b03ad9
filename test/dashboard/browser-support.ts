/**
 * Chromium for the dashboard tests: Debian's /usr/bin/chromium driven by playwright-core (never a
 * downloaded browser), a fresh profile per run, and an axe-core check that runs inside the page.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { ERRORS_EN, ERRORS_PT } from '../../web/dashboard/src/error-messages.ts';
import { EVENT_NAMES } from '../../web/dashboard/src/labels.ts';
import { PT } from '../../web/dashboard/src/pt.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const canRunBrowser = existsSync(CHROMIUM) || Boolean(process.env.CI);
if (!canRunBrowser)
  console.warn(`browser test skipped: ${CHROMIUM} is absent (apt-get install -y chromium); CI installs it`);

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface Chromium {
  context: BrowserContext;
  close(): Promise<void>;
}

/** A persistent context on a fresh --user-data-dir (removed on close). */
export async function launchChromium(options: { locale: string; origin: string }): Promise<Chromium> {
  const profile = mkdtempSync(path.join(tmpdir(), 'lastro-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: ARGS,
    viewport: { width: 1280, height: 860 },
    locale: options.locale,
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: options.origin });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Console errors, uncaught exceptions and CSP violations of a page: none may happen. */
export function watchProblems(page: Page, ignore: (text: string) => boolean = () => false): string[] {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && !ignore(message.text())) problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  return problems;
}

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeFinding {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core's serious and critical violations on the page as it is now. The script is evaluated
 * through the DevTools protocol, which the page's CSP does not govern, so the CSP stays strict.
 */
export async function seriousAxeViolations(page: Page): Promise<AxeFinding[]> {
  await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe is the global the script just defined
    const { axe, document } = globalThis as any;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return (
      result.violations as {
        id: string;
        impact: string;
        help: string;
        nodes: { target: string[] }[];
      }[]
    )
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.map((node) => node.target.join(' ')),
      }));
  });
}

/**
 * The English a pt-BR page must not show: each sentence of the dashboard's catalogues whose
 * Portuguese differs (placeholders match anything), whole; and words that only untranslated text
 * would contain, anywhere in it (an event code, a status, a button's verb).
 */
const SENTENCES: RegExp[] = [
  ...Object.entries(PT)
    .filter(([english, portuguese]) => english !== portuguese)
    .map(([english]) => english),
  ...Object.entries(ERRORS_EN)
    .filter(([code, english]) => english !== ERRORS_PT[code as keyof typeof ERRORS_PT])
    .map(([, english]) => english),
].map((english) => {
  const escaped = english.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{\w+\\\}/g, '.+');
  return new RegExp(`^${escaped}$`, 's');
});
const ENGLISH_WORDS = [
  ...['Loading', 'Save', 'Cancel', 'Error', 'Submit', 'Delete', 'Retry', 'Refresh', 'Search'],
  ...['Previous', 'Next', 'Copy', 'Download', 'Confirm', 'Amount', 'Balance', 'Customer', 'Wallet'],
  ...['completed', 'pending', 'failed', 'processing', 'expired', 'refunded', 'delivered'],
  ...['revoked', 'enabled', 'disabled', 'approved', 'rejected'],
  ...Object.keys(EVENT_NAMES),
];
// Whole words: no letter, digit or joining character on either side, so "Cancelar" and
// "lastro_test_sk" do not count.
const WORD = new RegExp(
  `(?<![\\p{L}\\p{N}_.-])(${ENGLISH_WORDS.map((w) => w.replaceAll('.', '\\.')).join('|')})(?![\\p{L}\\p{N}_-])`,
  'iu',
);

/**
 * Each text node of the page and each label a person or a screen reader meets in an attribute
 * (aria-label, title, placeholder, alt, a button input's value), outside <code> and <pre>: those
 * show API values and calls as they are, in English on purpose.
 */
async function pageTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    // biome-ignore lint/suspicious/noExplicitAny: the page's globals; the tests' tsconfig has no DOM types
    const { document, NodeFilter } = globalThis as any;
    const verbatim = 'script, style, template, noscript, code, pre';
    const texts: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      if (!node.parentElement?.closest(verbatim)) texts.push(node.nodeValue);
    }
    const labelled = '[aria-label], [title], [placeholder], [alt], input[type=button], input[type=submit]';
    for (const element of document.body.querySelectorAll(labelled)) {
      if (element.closest(verbatim)) continue;
      for (const name of ['aria-label', 'title', 'placeholder', 'alt'])
        texts.push(element.getAttribute(name));
      if (element.type === 'button' || element.type === 'submit') texts.push(element.value);
    }
    return texts
      .filter((text): text is string => typeof text === 'string')
      .map((text) => text.replace(/\s+/g, ' ').trim())
      .filter(Boolean);
  });
}

/** What of the page reads in English in a pt-BR session, as `page: "text"` lines. */
export async function untranslatedEnglish(page: Page, name: string): Promise<string[]> {
  const found = new Set<string>();
  for (const text of await pageTexts(page)) {
    const word = text.match(WORD)?.[1];
    if (SENTENCES.some((sentence) => sentence.test(text))) found.add(`${name}: "${text}"`);
    else if (word) found.add(`${name}: "${word}" in "${text}"`);
  }
  return [...found];
}
