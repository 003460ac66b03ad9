// Builds the dashboard into dist/dashboard; `npm ci` runs it through the root `prepare` script.
// An install without devDependencies (npm ci --omit=dev) has no Vite: it warns instead of failing
// the install, and the server then answers /dashboard with a page saying how to build it.
import { fileURLToPath } from 'node:url';

let vite;
try {
  vite = await import('vite');
} catch {
  console.warn('dashboard: vite is not installed (devDependencies omitted?); /dashboard will not be served');
  process.exit(0);
}
await vite.build({
  configFile: fileURLToPath(new URL('./vite.config.ts', import.meta.url)),
  logLevel: 'warn',
});
