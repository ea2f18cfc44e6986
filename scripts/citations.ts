// The citation check (docs/testing.md "The citation check"): comments, strings and docs cite our
// own Markdown by path and heading, `docs/api/webhooks.md "Retries"` or
// `docs/api/webhooks.md#retries`, and a package's README by its heading, bare (the README of the
// citing file's package) or with the package's name (`payout README "Execute"`). Every such citation must name a file that
// exists and a heading it has; documents outside the repository (the interface spec, the design
// notes, the research notes, the shared conventions) are never cited or named, nor is an issue of
// a tracker by its number.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize as normalizePath } from 'node:path';

export interface CitationProblem {
  file: string;
  line: number;
  message: string;
}

/** Generated or vendored: never edited by hand, so never checked. */
const SKIPPED = [
  /(^|\/)node_modules\//,
  /(^|\/)dist\//,
  /^proto\/gen\//,
  /^client\/src\/generated\//,
  /^client\/openapi\.json$/,
  /^sdk\/go\/api\/api\.gen\.go$/,
  /^sdk\/python\/src\/qr_payout\/_generated\//,
  /^gateway\/assets\//,
  /^\.data\//,
  /^\.tools\//,
  /\.(png|jpe?g|gif|ico|svg|woff2?|ttf|wasm|gz|tgz|zip|lock)$/,
  /^package-lock\.json$/,
  /\.jsonl$/, // test vectors: their "source" names files of other repositories
  /^scripts\/citations\.test\.ts$/, // its fixtures are broken citations on purpose
];

// A numbered section of a document that is not in the repository: the word spec, design or
// research, then the section sign and a number, in any case, possibly in parentheses. These
// patterns are written with character classes and escapes so that this file does not match itself.
const OUTSIDE_SECTION = /\b(spec|design|research)\s*\(?[§]/i;

const OUTSIDE_MESSAGE = 'cite docs/ by path and heading';

/** Names of documents that live beside the repository, never in it. */
const OUTSIDE_NAMES: readonly RegExp[] = [
  /\bresearch\s+[\w.-]+\.m[d]\b/i, // a research note by name, "research <name>.md"
  /[\w.-]*\.m[d]\s*\(?[§]/i, // a numbered section of a Markdown file: ours are cited by heading
  /(?<![\w./-])researc[h]\//i, // a path into the research folder
  /\b(?:architecture|payments|webhooks)-anchor[s]\b|\binfra-recipe[s]\b|\bbaselines\.m[d]\b/i, // research notes
  /(?<![\w./-])convention[s](?:\s+"|\.md\b)/i, // the shared conventions, by section or file
  /\/work\/share[d]\b/, // the shared folder by absolute path
  /\binterface-spe[c]\b|(?<![\w-])design\.m[d]\b/i, // the interface spec, the design notes
];

// An issue of a tracker by number: the word issue or issues, then a number of one to three digits
// after a space, a hash, a hyphen (the anchor form) or "no." / "number". Not a year (four digits),
// a version or a decimal (a dot, comma or colon and a digit follow), a quantity with its unit glued
// on, nor a tracker's web address (the number after a slash is an upstream's issue, not ours).
const ISSUE_NUMBER =
  /(?<![\w./-])issues?(?:[ \t]*#[ \t]*|[ \t]+(?:no\.|number)?[ \t]*|-)[1-9][0-9]{0,2}(?!\w|[.,:][0-9])/i;

const ISSUE_MESSAGE = 'cites an issue of an outside tracker: cite docs/ by path and heading';

// A comment or prose line that ends in the word issue, and the number opening the next line (after
// its comment leader); a numbered list item there (a number and a dot) is not a continuation.
const ENDS_WITH_ISSUE = /(?<![\w./-])issues?[ \t]*#?[ \t]*$/i;
const CONTINUATION = /^[ \t]*(?:\*|\/\/|--|#)?[ \t]*(?![0-9]+\.(?:\s|$))/;

/** Whether a line cites a tracker's issue by number, wrapped onto the next line or not. */
export function citesIssue(line: string, next = ''): boolean {
  if (ISSUE_NUMBER.test(line)) return true;
  if (!ENDS_WITH_ISSUE.test(line)) return false;
  const lead = CONTINUATION.exec(next);
  return lead !== null && ISSUE_NUMBER.test(`${line.trimEnd()} ${next.slice(lead[0].length)}`);
}

// A parent path to a folder named shared (any depth) is fine where it resolves to a folder of the
// repository (bench/shared); from the root it is the folder beside the repository.
const PARENT_SHARED = /(?<![\w.])((?:\.\.\/)+)share[d]\//g;

/**
 * The one section allowed to name the outside documents and an issue by number: the page that
 * explains this check. The citations it makes are still checked.
 */
const EXPLAINS_THE_CHECK = { file: 'docs/testing.md', heading: 'the citation check' };

// A quoted heading; it may wrap onto the next comment line (`// `, ` * `, `-- `, `# `).
const QUOTED = String.raw`"([^"\n]{1,160}(?:\n[ \t]*(?:\*|//|--|#)?[ \t]*[^"\n]{1,160})?)"`;
const HEADINGS = String.raw`${QUOTED}(?:(?:,| and| or)\s+${QUOTED})*`;
const MD_PATH = String.raw`((?:[A-Za-z0-9_.-]+/)+[A-Za-z0-9_.-]+\.md)`;
const PATH_CITATION = new RegExp(
  String.raw`(?<![\w./-])${MD_PATH}(?:#([A-Za-z0-9_-]+)|[ \t]+(${HEADINGS}))?`,
  'g',
);
const README_CITATION = new RegExp(
  String.raw`(?<![\w./-])(?:([a-z][a-z0-9-]*) )?README[ \t]+(${HEADINGS})`,
  'g',
);
const ONE_QUOTED = new RegExp(QUOTED, 'g');

/** Lower case, comment leaders and line breaks folded to one space, backticks dropped. */
function normalize(text: string): string {
  return text
    .replace(/\n[ \t]*(?:\*|\/\/|--|#)?[ \t]*/g, ' ')
    .replace(/`/g, '')
    .replace(/\s+/g, ' ')
    .trim()
    .toLowerCase();
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The headings of a Markdown text (ATX, outside fenced code), and their anchors. */
export function headingsOf(markdown: string): { texts: Set<string>; anchors: Set<string> } {
  const texts = new Set<string>();
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  let fence: string | null = null;
  for (const line of markdown.split('\n')) {
    const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (opening) {
      if (fence === null) fence = opening[1]![0]!;
      else if (opening[1]![0] === fence) fence = null;
      continue;
    }
    if (fence !== null) continue;
    const heading = /^\s{0,3}#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const text = heading[1]!;
    texts.add(normalize(text));
    const base = anchorOf(text);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return { texts, anchors };
}

/**
 * Whether a heading is the cited text, or begins with it and goes on with a qualifier
 * (`payout README "Execute"` for "Execute: state machine, durable idempotency, rails").
 */
function hasHeading(texts: Set<string>, cited: string): boolean {
  if (texts.has(cited)) return true;
  for (const text of texts) {
    if (text.startsWith(cited) && /^[\s:,(]/.test(text.slice(cited.length))) return true;
  }
  return false;
}

export interface Repo {
  /** The text of a repository file, or null when it does not exist. */
  read(path: string): string | null;
  /** Whether a folder of the repository exists; when absent, any folder inside the root counts. */
  isDirectory?(path: string): boolean;
}

function lineAt(text: string, index: number): number {
  let line = 1;
  for (let i = 0; i < index; i++) if (text.charCodeAt(i) === 10) line++;
  return line;
}

/** The README of the package a file belongs to: the nearest README.md above it. */
function nearestReadme(file: string, repo: Repo): string | null {
  let dir = dirname(file);
  for (;;) {
    const candidate = dir === '.' ? 'README.md' : join(dir, 'README.md');
    if (repo.read(candidate) !== null) return candidate;
    if (dir === '.') return null;
    dir = dirname(dir);
  }
}

/** Every broken citation and every citation of an outside document in one file's text. */
export function checkText(file: string, text: string, repo: Repo): CitationProblem[] {
  const problems: CitationProblem[] = [];
  const headingCache = new Map<string, ReturnType<typeof headingsOf>>();
  const headingsFor = (path: string) => {
    let cached = headingCache.get(path);
    if (!cached) {
      cached = headingsOf(repo.read(path) ?? '');
      headingCache.set(path, cached);
    }
    return cached;
  };
  const checkHeadings = (path: string, quoted: string | undefined, index: number) => {
    if (!quoted) return;
    const { texts } = headingsFor(path);
    for (const match of quoted.matchAll(ONE_QUOTED)) {
      const heading = normalize(match[1]!);
      if (!hasHeading(texts, heading)) {
        problems.push({
          file,
          line: lineAt(text, index),
          message: `${path} has no heading "${heading}"`,
        });
      }
    }
  };

  const explainsTheCheck = file === EXPLAINS_THE_CHECK.file;
  let inExplanation = false;
  let fence: string | null = null;
  const lines = text.split('\n');
  lines.forEach((content, i) => {
    if (explainsTheCheck) {
      const opening = /^\s{0,3}(`{3,}|~{3,})/.exec(content);
      if (opening) fence = fence === null ? opening[1]![0]! : opening[1]![0] === fence ? null : fence;
      const heading = fence === null && !opening ? /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(content) : null;
      if (heading) inExplanation = normalize(heading[2]!) === EXPLAINS_THE_CHECK.heading;
      if (inExplanation) return;
    }
    const outside = (message: string) => problems.push({ file, line: i + 1, message });
    for (const pattern of OUTSIDE_NAMES) {
      const named = pattern.exec(content);
      if (named) {
        const name = named[0].trim().replace(/"$/, '"…"');
        outside(`names ${name}, a document outside the repository: ${OUTSIDE_MESSAGE}`);
        return;
      }
    }
    if (OUTSIDE_SECTION.test(content)) {
      outside(`cites a section of a document outside the repository: ${OUTSIDE_MESSAGE}`);
      return;
    }
    if (citesIssue(content, lines[i + 1])) {
      outside(ISSUE_MESSAGE);
      return;
    }
    for (const match of content.matchAll(PARENT_SHARED)) {
      const folder = normalizePath(join(dirname(file), match[1]!, 'shared'));
      if (folder.startsWith('..') || !(repo.isDirectory?.(folder) ?? true)) {
        outside(`names ${match[0]}, a folder outside the repository: ${OUTSIDE_MESSAGE}`);
        return;
      }
    }
  });

  for (const match of text.matchAll(PATH_CITATION)) {
    const [, cited, anchor, quoted] = match;
    // `../docs/operators.md` from cli/README.md: relative to the citing file; otherwise from the root.
    const path = cited!.startsWith('.') ? normalizePath(join(dirname(file), cited!)) : cited!;
    if (path.startsWith('..')) {
      problems.push({ file, line: lineAt(text, match.index), message: `${cited} is outside the repository` });
      continue;
    }
    if (repo.read(path) === null) {
      problems.push({ file, line: lineAt(text, match.index), message: `${cited} does not exist` });
      continue;
    }
    if (anchor && !headingsFor(path).anchors.has(anchor.toLowerCase())) {
      problems.push({ file, line: lineAt(text, match.index), message: `${path} has no heading #${anchor}` });
    }
    checkHeadings(path, quoted, match.index);
  }

  for (const match of text.matchAll(README_CITATION)) {
    const [, pkg, quoted] = match;
    let readme: string | null;
    if (pkg) {
      readme = [`services/${pkg}/README.md`, `${pkg}/README.md`].find((p) => repo.read(p) !== null) ?? null;
      if (readme === null) continue; // "the README" in prose, not a package name
    } else {
      readme = nearestReadme(file, repo);
    }
    if (readme === null) {
      problems.push({ file, line: lineAt(text, match.index), message: 'no README.md above this file' });
      continue;
    }
    checkHeadings(readme, quoted, match.index);
  }
  return problems;
}

/** The repository's files as git knows them (tracked, and new ones not ignored). */
export function repoFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  }).toString('utf8');
  return [...new Set(out.split('\0'))].filter((f) => f !== '' && !SKIPPED.some((re) => re.test(f)));
}

/** Checks every file of the repository at `root`. */
export function checkRepository(root: string): CitationProblem[] {
  const cache = new Map<string, string | null>();
  const repo: Repo = {
    read(path) {
      if (!cache.has(path)) {
        const full = join(root, path);
        cache.set(path, existsSync(full) ? readFileSync(full, 'utf8') : null);
      }
      return cache.get(path) ?? null;
    },
    isDirectory(path) {
      const full = join(root, path);
      return existsSync(full) && statSync(full).isDirectory();
    },
  };
  const problems: CitationProblem[] = [];
  for (const file of repoFiles(root)) {
    const text = repo.read(file);
    if (text === null || text.includes('\0')) continue;
    problems.push(...checkText(file, text, repo));
  }
  return problems;
}
