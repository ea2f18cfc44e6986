// The one place where a reference to a public API page, `docs/api/<page>.md` as the OpenAPI
// descriptions and the pages write it, becomes a link to the page the gateway serves
// (README "Served docs"). Applied to Markdown, before it is rendered: the OpenAPI
// document's descriptions as it is built (Swagger UI on /docs renders them), the pages by marked.

import { readdirSync } from 'node:fs';
import path from 'node:path';

/** Where the gateway serves the public API pages: the index, and one page per file. */
export const API_PAGES_PATH = '/docs/api';

/** The folder of the public API pages, docs/api of the repository. */
export const API_PAGES_DIR = path.join(__dirname, '..', '..', '..', 'docs', 'api');

/** The served page names: the docs/api files but the README, which is the index. */
export function apiPageNames(dir = API_PAGES_DIR): string[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.md') && file !== 'README.md')
    .map((file) => file.slice(0, -3))
    .sort();
}

/** The served address of a page name (README: the index). */
export function apiPageHref(page: string): string {
  return page === 'README' ? API_PAGES_PATH : `${API_PAGES_PATH}/${page}`;
}

/** A heading's anchor: lower case, letters, digits and dashes (GitHub's way, for links that work on both). */
export function headingAnchor(text: string): string {
  return text
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&[#a-z0-9]+;/g, '')
    .replace(/[^a-z0-9 _-]/g, '')
    .trim()
    .replace(/ /g, '-');
}

// Left as they are: fenced code, existing links (text and target), and code spans that are not
// exactly a reference. A reference, bare or as a code span, becomes a link.
// A bare reference followed by a quoted heading (`docs/api/<page>.md "Heading"`, the house style of
// references) links to that heading.
const MARKDOWN_PARTS =
  /```[\s\S]*?```|\[[^\]\n]*\]\([^)\n]*\)|`docs\/api\/([A-Za-z0-9-]+)\.md`|`[^`\n]*`|docs\/api\/([A-Za-z0-9-]+)\.md(?: "([^"\n]+)")?/g;

/** `markdown` with every reference to a known page linked to its served address (and heading). */
export function linkApiPageReferences(markdown: string, pages: ReadonlySet<string>): string {
  return markdown.replace(MARKDOWN_PARTS, (part, codePage?: string, barePage?: string, heading?: string) => {
    const page = codePage ?? barePage;
    if (page === undefined || (page !== 'README' && !pages.has(page))) return part;
    const anchor = heading === undefined ? '' : `#${headingAnchor(heading)}`;
    return `[${part}](${apiPageHref(page)}${anchor})`;
  });
}

/** Values of an OpenAPI document that are data, not prose: left as they are. */
const DATA_KEYS = new Set(['example', 'examples', 'default', 'const', 'enum']);

/**
 * A copy of an OpenAPI document (or any JSON value) whose every `description` string has its
 * references linked; examples and other data are copied as they are.
 */
export function linkDescriptionReferences<T>(value: T, pages: ReadonlySet<string>): T {
  if (Array.isArray(value)) return value.map((item) => linkDescriptionReferences(item, pages)) as T;
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (key === 'description' && typeof item === 'string') copy[key] = linkApiPageReferences(item, pages);
    else copy[key] = DATA_KEYS.has(key) ? item : linkDescriptionReferences(item, pages);
  }
  return copy as T;
}
