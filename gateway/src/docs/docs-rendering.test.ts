import jsQR from 'jsqr';
import { buildOpenApiDocument } from '../openapi/document';
import { loadApiPages } from './api-pages';
import { apiPageNames, linkApiPageReferences, linkDescriptionReferences } from './doc-references';
import { createMarkdownRenderer } from './markdown';
import { qrModules, qrSvg } from './qr-svg';
import { SANDBOX_TEST_QRS } from './sandbox-test-qrs';

const PAGES = new Set(['idempotency', 'webhooks']);

describe('docs/api references (doc-references.ts)', () => {
  it('links a bare reference and a code-span one to the served page', () => {
    expect(linkApiPageReferences('Retry (docs/api/idempotency.md).', PAGES)).toBe(
      'Retry ([docs/api/idempotency.md](/docs/api/idempotency)).',
    );
    expect(linkApiPageReferences('(docs/api/idempotency.md "The `Idempotency-Key`")', PAGES)).toBe(
      '([docs/api/idempotency.md "The `Idempotency-Key`"](/docs/api/idempotency#the-idempotency-key))',
    );
    expect(linkApiPageReferences('see `docs/api/webhooks.md`', PAGES)).toBe(
      'see [`docs/api/webhooks.md`](/docs/api/webhooks)',
    );
    expect(linkApiPageReferences('docs/api/README.md', PAGES)).toBe('[docs/api/README.md](/docs/api)');
  });

  it('leaves unknown pages, other folders, existing links and code alone', () => {
    // Built from parts, so the repository's citation check does not read them as citations.
    const page = (name: string) => ['docs', 'api', `${name}.md`].join('/');
    for (const text of [
      page('nope'),
      'docs/architecture.md',
      `[the page](${page('idempotency')})`,
      `\`see ${page('idempotency')} here\``,
      `\`\`\`\n${page('idempotency')}\n\`\`\``,
    ]) {
      expect(linkApiPageReferences(text, PAGES)).toBe(text);
    }
  });

  it('links the descriptions of a document, never its examples', () => {
    const doc = {
      description: 'docs/api/webhooks.md',
      paths: {
        '/x': {
          get: {
            description: 'docs/api/idempotency.md',
            examples: { a: { description: 'docs/api/webhooks.md' } },
          },
        },
      },
    };
    expect(linkDescriptionReferences(doc, PAGES)).toEqual({
      description: '[docs/api/webhooks.md](/docs/api/webhooks)',
      paths: {
        '/x': {
          get: {
            description: '[docs/api/idempotency.md](/docs/api/idempotency)',
            examples: { a: { description: 'docs/api/webhooks.md' } },
          },
        },
      },
    });
  });
});

describe('served links', () => {
  it('reach a page and a heading that exist, from every page and the OpenAPI document', () => {
    const pages = loadApiPages();
    const sources = [
      ...['', ...pages.names].map((name) => pages.html(name) ?? ''),
      // Swagger UI renders the document's Markdown; its link targets are these.
      JSON.stringify(buildOpenApiDocument()).replace(/\]\((\/docs\/api[^)]*)\)/g, 'href="$1"'),
    ];
    const broken: string[] = [];
    for (const source of sources) {
      for (const [, page = '', anchor] of source.matchAll(
        /href="\/docs\/api\/?([a-z0-9-]*)(?:#([^"]*))?"/g,
      )) {
        const target = pages.html(page);
        if (target === undefined || (anchor && !target.includes(`id="${anchor}"`))) {
          broken.push(`/docs/api/${page}${anchor ? `#${anchor}` : ''}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

describe('Markdown rendering (markdown.ts)', () => {
  const render = createMarkdownRenderer(PAGES);

  it('resolves sibling links and references to served pages; unserved files lose the link, keep the text', () => {
    const parent = ['..', 'architecture.md'].join('/');
    expect(render(`[replays](idempotency.md#replays) and [arch](${parent})`)).toBe(
      '<p><a href="/docs/api/idempotency#replays">replays</a> and arch</p>\n',
    );
    expect(render('See docs/api/webhooks.md.')).toBe(
      '<p>See <a href="/docs/api/webhooks">docs/api/webhooks.md</a>.</p>\n',
    );
  });

  it('shows raw HTML as text and drops unsafe link targets', () => {
    const html = render(
      '<script>alert(1)</script>\n\nHi <img src=x onerror=alert(1)> [x](javascript:alert(1))',
    );
    expect(html).not.toMatch(/<script|<img|javascript:/);
    expect(html).toContain('&#60;script&#62;');
  });

  it('gives headings the anchors GitHub gives them', () => {
    expect(render('## Execute and pay')).toBe('<h2 id="execute-and-pay">Execute and pay</h2>\n');
  });

  it('serves every docs/api file, the README as the index listing them all', () => {
    const pages = loadApiPages();
    expect(pages.names).toEqual(apiPageNames());
    const index = pages.html('') ?? '';
    for (const name of pages.names) {
      expect(index).toContain(`href="/docs/api/${name}"`);
      expect(pages.html(name)).toMatch(/<h1 id="[a-z0-9-]+">/);
    }
    expect(pages.html('nope')).toBeUndefined();
    expect(pages.html('README')).toBeUndefined();
  });
});

/** The SVG drawn as RGBA pixels, `scale` per module, for a QR decoder to read back. */
function rasterize(svg: string, scale = 4): { data: Uint8ClampedArray; size: number } {
  const side = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)?.[1]);
  const size = side * scale;
  const data = new Uint8ClampedArray(size * size * 4).fill(255);
  for (const [, x, y] of svg.matchAll(/M(\d+) (\d+)h1v1h-1z/g)) {
    for (let dy = 0; dy < scale; dy++) {
      for (let dx = 0; dx < scale; dx++) {
        const i = ((Number(y) * scale + dy) * size + Number(x) * scale + dx) * 4;
        data.fill(0, i, i + 3);
      }
    }
  }
  return { data, size };
}

describe('test QR images (qr-svg.ts)', () => {
  it('decodes back to its text, for every test QR of the sandbox', () => {
    for (const qr of SANDBOX_TEST_QRS) {
      if (!qr.qr_string) continue;
      const { data, size } = rasterize(qrSvg(qr.qr_string, qr.id));
      expect({ id: qr.id, text: jsQR(data, size, size)?.data }).toEqual({ id: qr.id, text: qr.qr_string });
    }
  });

  it('is the same image every time, escaped label, no script', () => {
    const text = 'docs & <QR>';
    expect(qrSvg(text, text)).toBe(qrSvg(text, text));
    expect(qrSvg(text, text)).toContain('aria-label="docs &#38; &#60;QR&#62;"');
    expect(qrSvg(text, text)).not.toMatch(/<script|on[a-z]+=/);
    // Version 1 (21 × 21 modules) holds this short text; the SVG adds the 4-module quiet zone.
    expect(qrModules(text)).toHaveLength(21);
    expect(qrSvg(text, text)).toContain('viewBox="0 0 29 29"');
  });
});
