/** The dashboard's source files, for the tests that read them as text. */
import { readdirSync } from 'node:fs';
import path from 'node:path';

export const DASHBOARD_SRC = path.resolve(import.meta.dirname, '../../web/dashboard/src');

/** Every .ts and .tsx file below `dir`. */
export function dashboardSources(dir = DASHBOARD_SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return dashboardSources(full);
    return /\.tsx?$/.test(entry.name) ? [full] : [];
  });
}
