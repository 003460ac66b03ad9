/** The dashboard's headers: its own scripts and styles only (no inline script), calls to this origin only. */
export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "manifest-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const DASHBOARD_HEADERS = {
  'content-security-policy': DASHBOARD_CSP,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'permissions-policy': 'camera=(), microphone=(), geolocation=(), payment=()',
};

/** Shown when the server runs from a checkout whose dashboard was never built. */
export const MISSING_BUILD_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Dashboard not built</title></head>
<body><main><h1>The dashboard is not built</h1>
<p>This server has no <code>dist/dashboard/index.html</code>. <code>npm ci</code> builds it (the
<code>prepare</code> script); to build it by hand run <code>npm run build:dashboard</code>, then reload.</p>
<p>The API itself is running: see <a href="/docs">/docs</a>.</p></main></body></html>`;
