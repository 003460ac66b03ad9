import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const here = (relative: string) => fileURLToPath(new URL(relative, import.meta.url));

/** Built into dist/dashboard (gitignored) by `npm ci` (the prepare script); the server serves it at /dashboard. */
export default defineConfig({
  root: here('.'),
  base: '/dashboard/',
  plugins: [react()],
  // @lastro/sdk from its TypeScript sources (its package.json's `lastro-source`), never a stale build.
  resolve: { conditions: ['lastro-source', ...defaultClientConditions] },
  build: {
    outDir: here('../../dist/dashboard'),
    emptyOutDir: true,
    // No inline script may run under the dashboard's CSP.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
  server: { proxy: { '/v1': 'http://127.0.0.1:3000', '/pay': 'http://127.0.0.1:3000' } },
});
