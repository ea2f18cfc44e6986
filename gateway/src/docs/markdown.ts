import { Marked, type Tokens } from 'marked';
import { apiPageHref, headingAnchor, linkApiPageReferences } from './doc-references';
import { escapeHtml } from './html';

// Markdown to HTML for the served API pages (README "Served docs"), with marked. The
// pages are ours, yet the output is held to the docs CSP's terms all the same: raw HTML in the
// Markdown is shown as text, never passed through, and only web, mail and local link targets are
// kept (no `javascript:` or `data:` URL).

/**
 * A link target as served: a sibling page (`idempotency.md#x`) becomes its served address, other
 * relative `.md` files are not served (undefined: the text stays, without a link), an unsafe
 * scheme is dropped.
 */
function servedHref(href: string, pages: ReadonlySet<string>): string | undefined {
  const sibling = /^(?:\.\/)?([A-Za-z0-9-]+)\.md(#.*)?$/.exec(href);
  if (sibling?.[1] !== undefined) {
    const page = sibling[1];
    return page === 'README' || pages.has(page) ? `${apiPageHref(page)}${sibling[2] ?? ''}` : undefined;
  }
  if (/^(https?:|mailto:)/i.test(href) || /^[/#]/.test(href)) return href;
  return undefined;
}

/** A Markdown renderer for the pages in `pages` (names, without `.md`). */
export function createMarkdownRenderer(pages: ReadonlySet<string>): (markdown: string) => string {
  const marked = new Marked({ gfm: true, async: false });
  marked.use({
    renderer: {
      html({ text }: Tokens.HTML | Tokens.Tag) {
        return escapeHtml(text);
      },
      heading(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Heading) {
        const inner = this.parser.parseInline(token.tokens);
        const id = headingAnchor(inner);
        return `<h${token.depth} id="${id}">${inner}</h${token.depth}>\n`;
      },
      link(this: { parser: { parseInline(tokens: Tokens.Generic[]): string } }, token: Tokens.Link) {
        const inner = this.parser.parseInline(token.tokens);
        const href = servedHref(token.href, pages);
        return href === undefined ? inner : `<a href="${escapeHtml(href)}">${inner}</a>`;
      },
      image({ text }: Tokens.Image) {
        return escapeHtml(text);
      },
    },
  });
  return (markdown) => marked.parse(linkApiPageReferences(markdown, pages)) as string;
}
