import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { type PublicErrorTag, ERROR_TAGS as SYSTEM_ERROR_TAGS } from '@qr-payout/platform/errors';
import { errorCataloguePageHtml } from '../docs/pages';
import { ERROR_REGISTRY, ERROR_TAGS } from './registry';

// Every tag of platform's one union (docs/api/errors.md "Error names") is registered, documented
// and raised somewhere. The compiler already refuses a raise with a tag outside the union and a
// registry without an entry for a public tag; this checks what it cannot see.

const REPO = path.resolve(__dirname, '../../..');
const tags = Object.keys(SYSTEM_ERROR_TAGS) as (keyof typeof SYSTEM_ERROR_TAGS)[];
const publicTags = tags.filter((tag): tag is PublicErrorTag => SYSTEM_ERROR_TAGS[tag] === 'public');

/** Source files that can raise an error: services and gateway code, tests and migrations aside. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory())
      return ['node_modules', 'dist', 'test', 'migrations'].includes(entry.name) ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The error-table section of docs/api/errors.md: its rows are `| status | names | when |`. */
function errorNamesSection(): string {
  const doc = readFileSync(path.join(REPO, 'docs/api/errors.md'), 'utf8');
  const start = doc.indexOf('\n## Error names');
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end === -1 ? undefined : end);
}

describe('error tags', () => {
  it('registers exactly the public tags in the gateway, and no internal one', () => {
    expect([...ERROR_TAGS].sort()).toEqual([...publicTags].sort());
    expect(Object.keys(ERROR_REGISTRY).sort()).toEqual([...publicTags].sort());
  });

  it('documents every public tag on /docs/errors and in docs/api/errors.md with its status', () => {
    const page = errorCataloguePageHtml();
    expect(publicTags.filter((tag) => !page.includes(`id="${tag}"`))).toEqual([]);
    const rows = errorNamesSection()
      .split('\n')
      .filter((line) => line.startsWith('|'));
    const undocumented = publicTags.filter(
      (tag) =>
        !rows.some(
          (row) =>
            row.includes(`\`${tag}\``) && row.split('|')[1]?.trim() === String(ERROR_REGISTRY[tag].status),
        ),
    );
    expect(undocumented).toEqual([]);
    const named = rows.flatMap((row) => [...(row.split('|')[2] ?? '').matchAll(/`(\w+)`/g)].map((m) => m[1]));
    expect(named.filter((name) => !publicTags.includes(name as PublicErrorTag))).toEqual([]);
  });

  // A static scan, not a run: it finds a literal tag as the first argument of a raise call
  // (serviceError, apiError, new ApiError) in the source. A tag only ever passed through a variable
  // would be missed here and has to be raised literally somewhere.
  it('raises every tag somewhere (static scan of the raise sites in services/ and gateway/src)', () => {
    const raise = /\b(?:serviceError|apiError|new ApiError)\(\s*'([A-Za-z]+)'/g;
    const raised = new Set<string>();
    const files = [
      ...sourceFiles(path.join(REPO, 'services')),
      ...sourceFiles(path.join(REPO, 'gateway/src')),
    ];
    for (const file of files) for (const m of readFileSync(file, 'utf8').matchAll(raise)) raised.add(m[1]!);
    expect(tags.filter((tag) => !raised.has(tag))).toEqual([]);
    expect([...raised].filter((tag) => !Object.hasOwn(SYSTEM_ERROR_TAGS, tag))).toEqual([]);
  });
});
