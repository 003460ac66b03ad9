/**
 * Chromium for the dashboard tests: Debian's /usr/bin/chromium driven by playwright-core (never a
 * downloaded browser), a fresh profile per run, and an axe-core check that runs inside the page.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';

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
