import { functionSpans, isChecked, tooLong } from './function-length';

/** A function body of `n` lines in all: the header, n - 2 filler lines, the closing brace. */
const body = (n: number, filler: (i: number) => string): string =>
  Array.from({ length: n - 2 }, (_, i) => filler(i)).join('\n');

describe('functionSpans', () => {
  it('counts every function-like node from its first line to its last, blanks and comments included', () => {
    const text = [
      '// é: a multi-byte character before the functions, as swc counts bytes',
      'export function declared(): void {',
      '  // a comment',
      '',
      '}',
      'const arrow = async (x: number) => {',
      '  return x;',
      '};',
      'class Store {',
      '  constructor() {}',
      '  get size() { return 1; }',
      '  #hidden() {',
      '  }',
      '}',
      'const handlers = { onMessage() {}, onError: function () {}, done: () => 1 };',
      'exports.later = () => {',
      '};',
      'it("x", () => {});',
    ].join('\n');
    expect(functionSpans('gateway/src/a.ts', text).map((s) => `${s.line} ${s.name} ${s.lines}`)).toEqual([
      '2 declared 4',
      '6 arrow 3',
      '10 constructor 1',
      '11 size 1',
      '12 #hidden 2',
      '15 onMessage 1',
      '15 onError 1',
      '15 done 1',
      '16 later 2',
      '18 (anonymous) 1',
    ]);
  });
});

describe('tooLong', () => {
  it('names file, line, function and length of a function over the limit, however its lines are made', () => {
    const comments = `function commented() {\n${body(151, (i) => `  // note ${i}`)}\n}\n`;
    const blanks = `\nconst blank = () => {\n${body(151, () => '')}\n};\n`;
    expect(tooLong('services/fx/src/x.ts', comments + blanks)).toEqual([
      'services/fx/src/x.ts:1 commented 151 lines (max 150)',
      'services/fx/src/x.ts:153 blank 151 lines (max 150)',
    ]);
  });

  it('accepts a function of exactly the limit', () => {
    expect(tooLong('gateway/src/x.ts', `function full() {\n${body(150, () => '  work();')}\n}\n`)).toEqual(
      [],
    );
  });
});

describe('isChecked', () => {
  it('covers production sources of the services and the gateway, not tests or other packages', () => {
    expect(isChecked('services/payout/src/execution/service.ts')).toBe(true);
    expect(isChecked('gateway/src/http/routes/pay.ts')).toBe(true);
    expect(isChecked('gateway/src/http/routes/pay.test.ts')).toBe(false);
    expect(isChecked('services/payout/test/execute.int.test.ts')).toBe(false);
    expect(isChecked('cli/src/main.ts')).toBe(false);
    expect(isChecked('gateway/src/http/schemas.json')).toBe(false);
  });
});
