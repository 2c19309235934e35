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
  transform,
  moduleNameMapper: pathsToModuleNameMapper(),
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
};

module.exports = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['**/*.spec.ts'] },
    { ...common, displayName: 'integration', testMatch: ['**/*.int-spec.ts'] },
    { ...common, displayName: 'e2e', testMatch: ['**/*.e2e-spec.ts'] },
  ],
};
