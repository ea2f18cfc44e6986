// The function-length check (docs/contributing.md "Function length"): no function in production
// code of the services and the gateway spans more than MAX_FUNCTION_LINES lines, counted raw, from
// its first line to its last, blank and comment lines included. Biome's noExcessiveLinesPerFunction
// leaves comment lines out and has no option to count them, so this check is the rule's one owner.
// It parses with @swc/core (TypeScript 7 has no in-process parser) and reports `file:line name length`.
import { parseSync } from '@swc/core';

export const MAX_FUNCTION_LINES = 150;

/** Production sources the rule covers: services' and gateway's src, tests excluded. */
export function isChecked(file: string): boolean {
  return (
    /^(services\/[^/]+|gateway)\/src\/.+\.ts$/.test(file) &&
    !/\.test\.ts$/.test(file) &&
    !file.endsWith('.d.ts')
  );
}

export interface FunctionSpan {
  file: string;
  line: number;
  name: string;
  lines: number;
}

const FUNCTION_TYPES = new Set([
  'FunctionDeclaration',
  'FunctionExpression',
  'ArrowFunctionExpression',
  'ClassMethod',
  'PrivateMethod',
  'Constructor',
  'MethodProperty',
  'GetterProperty',
  'SetterProperty',
]);

interface AstNode {
  type?: string;
  span?: { start: number; end: number };
  [key: string]: unknown;
}

const isNode = (value: unknown): value is AstNode => typeof value === 'object' && value !== null;

/** The text of an identifier, private name or string key; `(computed)` for anything else. */
function keyName(key: unknown): string {
  if (!isNode(key)) return '(anonymous)';
  if (typeof key['value'] === 'string') return key.type === 'PrivateName' ? `#${key['value']}` : key['value'];
  return '(computed)';
}

/** The name a function node carries itself, or the one its parent gives it (`const f = () => …`). */
function functionName(node: AstNode, given: string | undefined): string {
  if (node.type === 'Constructor') return 'constructor';
  if (isNode(node['identifier'])) return keyName(node['identifier']);
  if (node['key'] !== undefined) return keyName(node['key']);
  return given ?? '(anonymous)';
}

/** The name a parent hands to the function that is its value, if any. */
function nameForChild(node: AstNode, field: string): string | undefined {
  if (node.type === 'VariableDeclarator' && field === 'init') return keyName(node['id']);
  if ((node.type === 'KeyValueProperty' || node.type === 'ClassProperty') && field === 'value') {
    return keyName(node['key']);
  }
  if (node.type === 'AssignmentExpression' && field === 'right') {
    const left = node['left'];
    if (isNode(left) && left.type === 'MemberExpression') return keyName(left['property']);
    return keyName(left);
  }
  return undefined;
}

/** Line numbers (1-based) of UTF-8 byte offsets, as swc's spans count bytes. */
function lineIndex(bytes: Buffer): (offset: number) => number {
  const starts = [0];
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 0x0a) starts.push(i + 1);
  return (offset) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low + 1;
  };
}

// A statement at offset 0 of the parsed text: its span's start is where swc begins counting.
const ANCHOR = 'void 0;\n';

/** Every function-like node of a file with its first line and its raw length in lines. */
export function functionSpans(file: string, text: string): FunctionSpan[] {
  const module = parseSync(ANCHOR + text, { syntax: 'typescript', tsx: file.endsWith('.tsx') });
  const base = module.body[0]!.span.start + Buffer.byteLength(ANCHOR);
  const lineOf = lineIndex(Buffer.from(text, 'utf8'));
  const found: FunctionSpan[] = [];
  const visit = (node: AstNode, given: string | undefined): void => {
    if (node.type !== undefined && FUNCTION_TYPES.has(node.type) && node.span !== undefined) {
      const first = lineOf(node.span.start - base);
      const last = lineOf(node.span.end - 1 - base);
      found.push({ file, line: first, name: functionName(node, given), lines: last - first + 1 });
    }
    for (const [field, child] of Object.entries(node)) {
      const name = nameForChild(node, field);
      if (Array.isArray(child)) for (const item of child) if (isNode(item)) visit(item, name);
      if (isNode(child) && !Array.isArray(child)) visit(child, name);
    }
  };
  for (const statement of module.body.slice(1)) visit(statement as unknown as AstNode, undefined);
  return found;
}

/** The functions of a file longer than the limit, as `file:line name length` lines. */
export function tooLong(file: string, text: string, max = MAX_FUNCTION_LINES): string[] {
  return functionSpans(file, text)
    .filter((span) => span.lines > max)
    .map((span) => `${span.file}:${span.line} ${span.name} ${span.lines} lines (max ${max})`);
}
