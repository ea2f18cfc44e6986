import { readFile } from 'node:fs/promises';
import path from 'node:path';

// The API reference page runs Swagger UI from the swagger-ui-dist package, served by the gateway
// itself: no CDN, no external fonts. Only these files are served; each is read once and kept.
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'application/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

export interface DocsAsset {
  body: Buffer;
  contentType: string;
}

export function createDocsAssets(): { get(name: string): Promise<DocsAsset | undefined> } {
  const loaded = new Map<string, Promise<DocsAsset>>();
  return {
    get(name) {
      const contentType = ASSETS[name];
      if (!Object.hasOwn(ASSETS, name) || !contentType) return Promise.resolve(undefined);
      let asset = loaded.get(name);
      if (!asset) {
        const dir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
        asset = readFile(path.join(dir, name)).then((body) => ({ body, contentType }));
        asset.catch(() => loaded.delete(name));
        loaded.set(name, asset);
      }
      return asset;
    },
  };
}

/** Starts Swagger UI on our document; a file (not inline) so the page's CSP can forbid inline scripts. */
export const DOCS_INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: '/v1/openapi.json',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
  });
});
`;

export const DOCS_CSP =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'";
