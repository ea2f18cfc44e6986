// Response headers of every dashboard answer, on both ports (docs/dashboard.md "Security"): a CSP
// that allows only this origin's files and API calls and nothing inline, no framing, no referrer,
// no sniffing; the page itself is never cached.

export const DASHBOARD_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** The headers of the HTML page (`page`) or of an asset. */
export function dashboardHeaders(kind: 'page' | 'asset'): Record<string, string> {
  return {
    'content-security-policy': DASHBOARD_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-frame-options': 'DENY',
    // The page is read fresh each time; an asset is revalidated so a new gateway's files are used.
    'cache-control': kind === 'page' ? 'no-store' : 'no-cache',
  };
}
