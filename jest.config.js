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

// ESM-only packages (NestJS 12 and the ESM packages it loads) that tests must compile to CommonJS.
const ESM_PACKAGES = [
  '@nestjs',
  'eventsource-parser',
  'file-type',
  'strtok3',
  'token-types',
  'peek-readable',
  'uint8array-extras',
  '@tokenizer',
  'load-esm',
];

const common = {
  transform: { ...transform, '^.+/node_modules/.+\\.m?js$': '<rootDir>/tools/jest/esm-to-cjs-transformer.js' },
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join('|')})/)`],
  moduleNameMapper: pathsToModuleNameMapper(),
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test', '<rootDir>/bench', '<rootDir>/evals'],
};

const withRedis = {
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
