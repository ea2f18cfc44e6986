import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

// The package's public surface is its subpath exports (README "Exports"). A static scan: every name
// an entry exports is imported from that subpath by some source file of another package (tests
// aside: an export only a test reads goes), and nothing imports a subpath the package lacks.

const PLATFORM = path.resolve(__dirname, '..');
const REPO = path.resolve(PLATFORM, '../..');
const SKIP = new Set(['node_modules', 'dist', 'test', 'test-e2e', '.git', '.data', '.tools', 'gen']);
// Exported for the declarations of the services' inferred config types (loadPayoutConfig's
// `kafkaConnection`, every service's `grpcTls`): TypeScript must be able to name them (TS2883),
// though no source names them.
const NAMED_BY_DECLARATIONS = new Set(['./events: KafkaConnection', './grpc: GrpcTls']);

type Exports = Record<string, { development: string; default: string }>;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) || full === PLATFORM ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** The names in `export { a, type B as C }` lists and `export function/const/type/... name`. */
function exportedNames(source: string): string[] {
  const names: string[] = [];
  for (const m of source.matchAll(
    /^export\s+(?:async\s+)?(?:function|const|let|class|type|interface|enum)\s+(\w+)/gm,
  ))
    names.push(m[1]!);
  for (const m of source.matchAll(/^export\s+(?:type\s+)?\{([^}]*)\}/gm))
    for (const item of m[1]!.split(',')) {
      const name = item
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop();
      if (name) names.push(name);
    }
  return names;
}

describe('@qr-payout/platform exports', () => {
  const exportsMap = (
    JSON.parse(readFileSync(path.join(PLATFORM, 'package.json'), 'utf8')) as { exports: Exports }
  ).exports;
  const imported = new Map<string, Set<string>>();
  for (const file of sourceFiles(REPO)) {
    const source = readFileSync(file, 'utf8');
    for (const m of source.matchAll(
      /(?:import|export)\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'@qr-payout\/platform\/([\w-]+)'/g,
    )) {
      const names = imported.get(m[2]!) ?? new Set<string>();
      for (const item of m[1]!.split(',')) {
        const name = item
          .trim()
          .replace(/^type\s+/, '')
          .split(/\s+as\s+/)[0];
        if (name) names.add(name);
      }
      imported.set(m[2]!, names);
    }
  }

  it('has no export that nothing imports', () => {
    const unused = Object.entries(exportsMap).flatMap(([subpath, target]) => {
      const names = imported.get(subpath.slice(2)) ?? new Set<string>();
      const source = readFileSync(path.join(PLATFORM, target.development), 'utf8');
      return exportedNames(source)
        .filter((name) => !names.has(name))
        .map((name) => `${subpath}: ${name}`)
        .filter((entry) => !NAMED_BY_DECLARATIONS.has(entry));
    });
    expect(unused).toEqual([]);
  });

  it('is imported only through subpaths it declares, each with its development and built entry', () => {
    expect([...imported.keys()].filter((subpath) => !exportsMap[`./${subpath}`])).toEqual([]);
    for (const target of Object.values(exportsMap))
      expect(target.default).toBe(target.development.replace('./src/', './dist/').replace(/\.ts$/, '.js'));
  });
});
