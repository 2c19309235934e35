// Three tiers as separate Jest projects (STYLE.md): unit, integration (real Redis + BullMQ), e2e
// (services as separate processes). SWC transpiles TypeScript with decorator metadata for Nest.
const { pathsToModuleNameMapper } = require('./tools/jest/paths');

const transform = {
  '^.+\\.ts$': [
    '@swc/jest',
    {
      jsc: {
        parser: { syntax: 'typescript', decorators: true },
        transform: { legacyDecorator: true, decoratorMetadata: true },
        target: 'es2022',
      },
      module: { type: 'commonjs' },
    },
  ],
};

const common = {
  // Every module under node_modules goes to the ESM transformer, which compiles only ES modules.
  transform: { ...transform, '^.+/node_modules/.+\\.m?js$': '<rootDir>/tools/jest/esm-to-cjs-transformer.js' },
  transformIgnorePatterns: [],
  moduleNameMapper: pathsToModuleNameMapper(),
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test', '<rootDir>/bench', '<rootDir>/evals'],
};

// Integration and e2e tests start real services (Redis, workers, databases) that a busy CI machine
// can take seconds to bring up: Jest's 5 s default failed a turn over two databases on CI. (A
// project's `testTimeout` is ignored by jest-circus, hence a setup file.)
const withRedis = {
  setupFilesAfterEnv: ['<rootDir>/tools/jest/service-test-timeout.js'],
  globalSetup: '<rootDir>/tools/jest/redis-global-setup.js',
  globalTeardown: '<rootDir>/tools/jest/redis-global-teardown.js',
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    { ...common, ...withRedis, displayName: 'integration', testMatch: ['**/*.int-spec.ts'] },
    { ...common, ...withRedis, displayName: 'e2e', testMatch: ['**/*.e2e-spec.ts'] },
  ],
};
