import { resolve } from 'node:path';
import {
  anchorOf,
  type CitationProblem,
  checkRepository,
  checkText,
  headingsOf,
  type Repo,
} from './citations';

// "spec" and "§" apart, so this file is not itself a citation of an outside document.
const SECTION = '§';

const files: Record<string, string> = {
  'docs/api/webhooks.md':
    '# Webhooks\n\n## Retries\n\n```sh\n# not a heading\n```\n\n## Auto-disable, and `failed`\n',
  'services/payout/README.md':
    '# payout\n\n## Execute: state machine, durable idempotency, rails\n\n## Config\n',
};
const repo: Repo = { read: (path) => files[path] ?? null };
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

describe('the repository', () => {
  it('has no broken citation and no citation of an outside document', () => {
    const problems = checkRepository(resolve(__dirname, '..')).map(
      (p) => `${p.file}:${p.line}: ${p.message}`,
    );
    expect(problems).toEqual([]);
  });
});
