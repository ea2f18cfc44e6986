import { resolve } from 'node:path';
import {
  anchorOf,
  type CitationProblem,
  checkRepository,
  checkText,
  citesIssue,
  headingsOf,
  type Repo,
  repoFiles,
} from './citations';

// "spec" and "§" apart, so this file is not itself a citation of an outside document.
const SECTION = '§';

const files: Record<string, string> = {
  'docs/api/webhooks.md':
    '# Webhooks\n\n## Retries\n\n```sh\n# not a heading\n```\n\n## Auto-disable, and `failed`\n',
  'services/payout/README.md':
    '# payout\n\n## Execute: state machine, durable idempotency, rails\n\n## Config\n',
  'bench/shared/open-loop.ts': 'export {};\n',
};
const repo: Repo = {
  read: (path) => files[path] ?? null,
  isDirectory: (path) => Object.keys(files).some((file) => file.startsWith(`${path}/`)),
};
const check = (file: string, text: string): string[] =>
  checkText(file, text, repo).map((p: CitationProblem) => `${p.file}:${p.line}: ${p.message}`);

describe('headings and anchors', () => {
  it('reads ATX headings outside fenced code, with GitHub anchors', () => {
    const { texts, anchors } = headingsOf(files['docs/api/webhooks.md']!);
    expect([...texts]).toEqual(['webhooks', 'retries', 'auto-disable, and failed']);
    expect([...anchors]).toEqual(['webhooks', 'retries', 'auto-disable-and-failed']);
    expect(anchorOf('Try it in the sandbox (two minutes)')).toBe('try-it-in-the-sandbox-two-minutes');
  });
});

describe('checkText', () => {
  it('accepts citations of existing headings, any case, wrapped over comment lines', () => {
    const text = [
      '// Retried on a schedule (docs/api/webhooks.md "retries"; docs/api/webhooks.md#retries).',
      '// Disabled after failures (docs/api/webhooks.md "Retries", "Auto-disable, and',
      '// `failed`"); the README of the package: README "Config", payout README "Execute".',
    ].join('\n');
    expect(check('services/payout/src/x.ts', text)).toEqual([]);
  });

  it('names file and line of a missing heading, a missing file and a bad anchor', () => {
    const text = [
      'line one',
      '// docs/api/webhooks.md "Retry" and docs/api/nothing.md "Retries"',
      '/** docs/api/webhooks.md#retry */',
      '-- README "Tables"',
    ].join('\n');
    expect(check('services/payout/migrations/0001.sql', text)).toEqual([
      'services/payout/migrations/0001.sql:2: docs/api/webhooks.md has no heading "retry"',
      'services/payout/migrations/0001.sql:2: docs/api/nothing.md does not exist',
      'services/payout/migrations/0001.sql:3: docs/api/webhooks.md has no heading #retry',
      'services/payout/migrations/0001.sql:4: services/payout/README.md has no heading "tables"',
    ]);
  });

  it('refuses sections of documents outside the repository', () => {
    const text = `ok\n// spec ${SECTION}6.4 and Design ${SECTION}3–${SECTION}4\n// the spec (${SECTION}3.1)\n`;
    expect(check('a.ts', text)).toEqual([
      'a.ts:2: cites a section of a document outside the repository: cite docs/ by path and heading',
      'a.ts:3: cites a section of a document outside the repository: cite docs/ by path and heading',
    ]);
  });
});

describe('documents beside the repository', () => {
  const named = (what: string) =>
    `names ${what}, a document outside the repository: cite docs/ by path and heading`;

  it('refuses research notes, the conventions, the interface spec and the design notes by name', () => {
    const text = [
      '// Pix BR Code (research qr-schemes.md §2), CUITs (research §3)',
      '// txid, revisao (research',
      '// qr-schemes.md §2): status',
      '// A static Pix QR (research/qr-vectors.jsonl)',
      '// no OTel for http2: architecture-anchors §4g',
      ' * no internals leave the process (conventions "Errors").',
      '// Sources: /work/shared/research/qr-schemes.md',
      '-- interface-spec.md section 8, and design.md',
      '// docs/qr-schemes.md "Pix (BR)" and docs/api-conventions.md "Naming" are ours',
    ].join('\n');
    expect(checkText('services/decoder/src/x.ts', text, repo).map((p) => `${p.line}: ${p.message}`)).toEqual([
      `1: ${named('research qr-schemes.md')}`,
      `3: ${named(`qr-schemes.md ${SECTION}`)}`,
      `4: ${named('research/')}`,
      `5: ${named('architecture-anchors')}`,
      `6: ${named('conventions "…"')}`,
      `7: ${named('/work/shared')}`,
      `8: ${named('interface-spec')}`,
      '9: docs/qr-schemes.md does not exist',
      '9: docs/api-conventions.md does not exist',
    ]);
    expect(check('a.ts', `// (research ${SECTION}3)`)).toEqual([
      'a.ts:1: cites a section of a document outside the repository: cite docs/ by path and heading',
    ]);
  });

  it('refuses a parent path to the shared folder beside the repository, not to one inside it', () => {
    expect(check('README.md', 'Read `../shared/conventions.md` first.\n')).toEqual([
      'README.md:1: names ../shared/, a folder outside the repository: cite docs/ by path and heading',
      'README.md:1: ../shared/conventions.md is outside the repository',
    ]);
    expect(
      check('bench/pay/open-loop.ts', "// (../shared/open-loop.ts)\nimport '../shared/open-loop';\n"),
    ).toEqual([]);
    expect(check('services/decoder/src/x.ts', "// '../../../shared/x'\n")).toEqual([
      'services/decoder/src/x.ts:1: names ../../../shared/, a folder outside the repository: cite docs/ by path and heading',
    ]);
  });

  it('lets the section that explains the check name them, and only that section', () => {
    const text = [
      '# Testing',
      '## The citation check',
      'It fails on `research qr-schemes.md`, `conventions "Errors"` and `/work/shared`.',
      '```sh',
      '## not a heading: research qr-schemes.md',
      '```',
      '## Test infrastructure',
      'See `/work/shared`.',
    ].join('\n');
    expect(check('docs/testing.md', text)).toEqual([`docs/testing.md:8: ${named('/work/shared')}`]);
    expect(check('docs/other.md', text).map((p) => p.split(':')[1])).toEqual(['3', '5', '8']);
  });
});

describe('issues of a tracker', () => {
  const ISSUE = 'cites an issue of an outside tracker: cite docs/ by path and heading';
  // Written "{issue} 10" here, so that a grep of the repository for the form finds only real ones.
  const cited = (text: string) => text.replace(/\{(issue)\}/gi, '$1');

  it.each(
    [
      'Settlement horizons ({issue} 10).',
      '// {Issue} 18 point 4: the link faults',
      '{issue} 10 §3: a dynamic Pix charge',
      "before it followed {issue} 10's list",
      '{issue}s 3 and 4 set latency',
      '({issue} 19 point 1; docs/testing.md "Fuzz")',
      '{ISSUE} 7',
      'see [the goals](#{issue}-12)',
      '{issue} #12',
      '{issue}  12',
      '{issue} no. 12',
      '{Issue} number 5 asked for it',
      'a typo,{issue} 3',
      '{issue} 999.',
    ].map(cited),
  )('refuses %j', (line) => {
    expect(citesIssue(line)).toBe(true);
  });

  it.each(
    [
      'no {issue} here',
      'an {issue} of tracing: 10 spans',
      'the {issue} 2024 (a year)',
      '{issue}s 1.2.3 and later (a version)',
      '{issue} 0',
      '{issue} 1000',
      '{issue} 10ms',
      't{issue} 3, re{issue} 4',
      'https://github.com/grpc/grpc-node/{issue}s/2317',
      'docs/{issue}-12.md',
      '{issue}-tracker 12',
      '{issue} 12:30',
      '{issue} 1,000',
    ].map(cited),
  )('accepts %j', (line) => {
    expect(citesIssue(line)).toBe(false);
  });

  it('follows a number wrapped onto the next comment line, not a numbered list', () => {
    expect(citesIssue(cited('// what changed ({issue}'), '// 10 "Nothing stuck")')).toBe(true);
    expect(citesIssue(cited(' * the goals of {issue}'), ' * 4: latency')).toBe(true);
    expect(citesIssue(cited('Known {issue}s'), '1. The pool drains slowly')).toBe(false);
    expect(citesIssue(cited('Known {issue}s'), '')).toBe(false);
    expect(citesIssue(cited('Known {issue}s'))).toBe(false);
  });

  it('names file and line, once per line, outside the section that explains the check', () => {
    const text = cited(
      [
        '# Testing',
        'Goals ({issue} 10), twice: {issue} 11.',
        '// wrapped ({issue}',
        '// 12)',
        '## The citation check',
        'It fails on `{issue} 10` and `#{issue}-12`.',
        '## Fuzz',
        '{Issue} 20.',
      ].join('\n'),
    );
    expect(check('docs/testing.md', text)).toEqual([
      `docs/testing.md:2: ${ISSUE}`,
      `docs/testing.md:3: ${ISSUE}`,
      `docs/testing.md:8: ${ISSUE}`,
    ]);
    expect(check('docs/other.md', text).map((p) => p.split(':')[1])).toEqual(['2', '3', '6', '8']);
  });
});

describe('the repository', () => {
  it('scans SQL migrations: their checksum leaves comments out', () => {
    expect(repoFiles(resolve(__dirname, '..'))).toContain('services/payout/migrations/0001_payout.sql');
  });

  it('has no broken citation and no citation of an outside document', () => {
    const problems = checkRepository(resolve(__dirname, '..')).map(
      (p) => `${p.file}:${p.line}: ${p.message}`,
    );
    expect(problems).toEqual([]);
  });
});
