import { readFileSync } from 'node:fs';
import path from 'node:path';
import { API_PAGES_DIR, apiPageHref, apiPageNames } from './doc-references';
import { escapeHtml } from './html';
import { createMarkdownRenderer } from './markdown';
import { docPage } from './pages';

// The public API pages of docs/api, served as HTML under /docs/api (README "Served
// docs"): rendered once, when the gateway starts, each with the list of all of them on top.

export interface ApiPages {
  /** Page names, without `.md`, README (the index) excluded. */
  names: readonly string[];
  /** The HTML of a page (README: the index), or undefined when there is no such page. */
  html(page: string): string | undefined;
}

function titleOf(markdown: string, fallback: string): string {
  return /^# (.+)$/m.exec(markdown)?.[1]?.trim() ?? fallback;
}

export function loadApiPages(dir = API_PAGES_DIR): ApiPages {
  const names = apiPageNames(dir);
  const render = createMarkdownRenderer(new Set(names));
  const sources = new Map<string, string>(
    ['README', ...names].map((name) => [name, readFileSync(path.join(dir, `${name}.md`), 'utf8')]),
  );
  const nav = [
    `<a href="/docs">API reference</a>`,
    `<a href="${apiPageHref('README')}">the public API</a>`,
    ...names.map((name) => `<a href="${apiPageHref(name)}">${name}</a>`),
    `<a href="/docs/errors">error catalogue</a>`,
    `<a href="/docs/samples">samples</a>`,
  ].join(' · ');
  const rendered = new Map<string, string>();
  for (const [name, markdown] of sources) {
    const title = escapeHtml(titleOf(markdown, name));
    rendered.set(name, docPage(`QR Payout API: ${title}`, `<nav>${nav}</nav>\n${render(markdown)}`));
  }
  return {
    names,
    html: (page) => (page === 'README' ? undefined : rendered.get(page === '' ? 'README' : page)),
  };
}
