import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';

// Debian's Chromium driven by playwright-core, which downloads no browser (docs/testing.md
// "Dashboard in a real browser"); `scripts/infra install` installs the package.
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-dev-shm-usage',
  '--disable-background-networking',
];

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, timeout: 30_000 });
}

/** DASHBOARD_SCREENSHOTS_DIR, or a fresh temporary folder; printed so CI can keep it. */
export function screenshotsDir(): string {
  const dir =
    process.env.DASHBOARD_SCREENSHOTS_DIR || mkdtempSync(path.join(os.tmpdir(), 'dashboard-shots-'));
  console.log(`dashboard screenshots: ${dir}`);
  return dir;
}

/** What a page reported: console errors, uncaught exceptions and CSP violations. */
export interface PageProblems {
  consoleErrors: string[];
  cspViolations: string[];
}

/**
 * Records the page's console errors and CSP violations (a `securitypolicyviolation` listener added
 * before any page script runs) from now on.
 */
export async function watchProblems(page: Page): Promise<PageProblems> {
  const problems: PageProblems = { consoleErrors: [], cspViolations: [] };
  await page.exposeFunction('__reportCspViolation', (text: string) => problems.cspViolations.push(text));
  // A string, not a function: this file is compiled without the DOM's types.
  await page.addInitScript({
    content: `document.addEventListener('securitypolicyviolation', (event) => {
      window.__reportCspViolation(event.violatedDirective + ' blocked ' + event.blockedURI);
    });`,
  });
  page.on('console', (message) => {
    if (message.type() === 'error') problems.consoleErrors.push(message.text());
  });
  page.on('pageerror', (error) => problems.consoleErrors.push(`uncaught: ${error.message}`));
  return problems;
}

/** Chromium logs every non-2xx fetch; these are the refusals a test provoked on purpose. */
export function unexpectedErrors(problems: PageProblems, expectedStatuses: number[]): string[] {
  const expected = new RegExp(
    `^Failed to load resource: the server responded with a status of (${expectedStatuses.join('|')})\\b`,
  );
  return problems.consoleErrors.filter((text) => !expected.test(text));
}
