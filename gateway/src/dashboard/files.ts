import { readFileSync } from 'node:fs';
import path from 'node:path';
import { TRANSACTION_STATUSES } from '@qr-payout/platform/vocabulary';
import { PUBLIC_DELIVERY_STATUSES } from '../http/presenters/webhook-delivery';

// The dashboard's files (docs/dashboard.md "How it is served"): gateway/dashboard beside src/ and
// dist/, copied into the image with the gateway. Each side serves its page and only the assets it
// names; everything is read once, when the gateway starts.

/** gateway/dashboard, from src/dashboard (tsx, jest) and dist/dashboard (the image) alike. */
export const DASHBOARD_DIR = path.join(__dirname, '..', '..', 'dashboard');

export type DashboardSide = 'tenant' | 'operator';

const SHARED_ASSETS = [
  'dashboard.css',
  'format.js',
  'answers.js',
  'api.js',
  'dom.js',
  'shell.js',
  'webhook-views.js',
];

const SIDES: Record<DashboardSide, { page: string; assets: readonly string[] }> = {
  tenant: { page: 'tenant.html', assets: [...SHARED_ASSETS, 'tenant.js'] },
  operator: { page: 'operator.html', assets: [...SHARED_ASSETS, 'operator.js'] },
};

const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

export interface DashboardAsset {
  body: Buffer;
  contentType: string;
}

export interface DashboardFiles {
  /** The side's HTML page, with the API's own state words filled in. */
  page: string;
  /** An asset of this side by its exact name, or undefined (anything else: 404). */
  asset(name: string): DashboardAsset | undefined;
}

/**
 * The page's word lists come from the vocabularies the API itself uses, so the filters offer
 * exactly the states the API accepts (the page carries no data, only these words).
 */
function fillPage(html: string): string {
  const words: Record<string, readonly string[]> = {
    'transaction-statuses': TRANSACTION_STATUSES,
    'delivery-statuses': PUBLIC_DELIVERY_STATUSES,
  };
  return html.replace(/\{\{([a-z-]+)\}\}/g, (placeholder, name: string) => {
    const list = words[name];
    if (!list) throw new Error(`dashboard page: unknown placeholder ${placeholder}`);
    return list.join(' ');
  });
}

export function loadDashboardFiles(side: DashboardSide, dir = DASHBOARD_DIR): DashboardFiles {
  const { page, assets } = SIDES[side];
  const loaded = new Map<string, DashboardAsset>(
    assets.map((name) => {
      const contentType = CONTENT_TYPES[path.extname(name)];
      if (!contentType) throw new Error(`dashboard asset ${name}: no content type for its extension`);
      return [name, { body: readFileSync(path.join(dir, name)), contentType }];
    }),
  );
  return {
    page: fillPage(readFileSync(path.join(dir, page), 'utf8')),
    asset: (name) => loaded.get(name),
  };
}
