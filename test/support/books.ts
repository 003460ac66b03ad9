/** `lastro verify` as a test's last word: every journal sealed, then every check of the books clean. */
import { expect } from 'vitest';
import { sealJournals } from '../../src/ledger/seal.ts';
import { verifyBooks } from '../../src/modules/verify/service.ts';
import type { Deps } from '../../src/platform/context.ts';

export async function expectBooksVerified(deps: Deps): Promise<void> {
  while ((await sealJournals(deps)) > 0);
  const report = await verifyBooks(deps.db, 20);
  expect(report.checks.filter((check) => check.violations > 0)).toEqual([]);
  expect(report.ok).toBe(true);
  expect(report.counts.journals).toBeGreaterThan(0);
  expect(report.chain.links).toBe(report.counts.journals);
}
