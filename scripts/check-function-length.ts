// Runs the function-length check (scripts/function-length.ts) over the files git knows; part of
// `npm run lint`. Exits 1 naming every function over the limit.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isChecked, tooLong } from './function-length';

const listed = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  encoding: 'utf8',
});
const problems = listed
  .split('\n')
  .filter(isChecked)
  .flatMap((file) => tooLong(file, readFileSync(file, 'utf8')));
for (const problem of problems) console.error(problem);
if (problems.length > 0) {
  console.error('function-length: split these functions (docs/contributing.md "Function length")');
  process.exit(1);
}
