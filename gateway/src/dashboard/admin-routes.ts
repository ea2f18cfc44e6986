import type http from 'node:http';
import type { DashboardFiles } from './files';
import { dashboardHeaders } from './headers';

const PAGE_PATH = '/dashboard';
const ASSET_PREFIX = '/dashboard/assets/';

/** The asset name as the public port's router decodes it; a malformed escape stays as sent. */
function decodedName(raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

/**
 * The operator side on the admin server (docs/dashboard.md "How it is served"): `GET /dashboard`
 * and its assets, static and without data, so they need no token; every datum comes from the
 * token-guarded RPCs. HEAD is answered as GET without the body (Node's server drops it), as the
 * public port's router does. Answers and returns true for a dashboard path, false for any other.
 */
export function answerDashboard(files: DashboardFiles, req: http.IncomingMessage, res: http.ServerResponse) {
  const path = req.url?.split('?')[0] ?? '';
  if (
    (req.method !== 'GET' && req.method !== 'HEAD') ||
    (path !== PAGE_PATH && !path.startsWith(ASSET_PREFIX))
  )
    return false;
  if (path === PAGE_PATH) {
    res.writeHead(200, {
      ...dashboardHeaders('page'),
      'content-type': 'text/html; charset=utf-8',
      'content-length': Buffer.byteLength(files.page),
    });
    res.end(files.page);
    return true;
  }
  const name = decodedName(path.slice(ASSET_PREFIX.length));
  const asset = files.asset(name);
  if (!asset) {
    // The admin API's own error shape (Connect's), as for any other unknown admin path.
    res.writeHead(404, { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' });
    res.end(
      JSON.stringify({
        code: 'not_found',
        message: `No dashboard asset named ${JSON.stringify(name.slice(0, 100))}.`,
      }),
    );
    return true;
  }
  res.writeHead(200, {
    ...dashboardHeaders('asset'),
    'content-type': asset.contentType,
    'content-length': asset.body.length,
  });
  res.end(asset.body);
  return true;
}
