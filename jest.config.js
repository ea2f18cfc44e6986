// One jest config, three levels (see docs/testing.md): unit tests need nothing external,
// integration and e2e tests need the real PostgreSQL, Redis and Kafka that scripts/with-infra starts.
const transform = {
  '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax: 'typescript' } } }],
  // The dashboard's browser modules (plain ES modules, docs/dashboard.md) for their unit tests.
  '^.+/gateway/dashboard/[^/]+\\.js$': ['@swc/jest', { jsc: { target: 'es2023' } }],
};
const common = {
  transform,
  testEnvironment: 'node',
  // Workspace packages resolve to their TypeScript sources, as under `node --conditions=development`.
  testEnvironmentOptions: { customExportConditions: ['development', 'node', 'require', 'default'] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  // marked ships ESM as its main entry, which Jest's CommonJS runtime cannot load (Node's require
  // can); its UMD build is the same code.
  moduleNameMapper: { '^marked$': '<rootDir>/node_modules/marked/lib/marked.umd.js' },
};
module.exports = {
  projects: [
    {
      ...common,
      displayName: 'unit',
      testMatch: [
        '<rootDir>/{services,gateway,partner-sim,sandbox,cli,webhook-receiver,client}/**/src/**/*.test.ts',
        '<rootDir>/test-kit/src/**/*.test.ts',
        '<rootDir>/bench/**/*.test.ts',
        '<rootDir>/scripts/**/*.test.ts',
        '<rootDir>/test-e2e/support/**/*.test.ts',
      ],
    },
    {
      ...common,
      displayName: 'integration',
      testMatch: ['<rootDir>/{services/*,gateway,partner-sim,sandbox,cli}/test/**/*.int.test.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test-e2e/**/*.e2e.test.ts'],
    },
  ],
};
