// Type-checked linting (STYLE.md): floating promises and non-exhaustive switches are errors, and
// Nx module boundaries really constrain: apps never import apps, contracts stay light, test
// utilities only reach specs. The boundary rule reads Nx's cached project graph and silently skips
// itself without one, so `npm run lint` runs through Nx (`nx run-many -t lint`: the graph is built
// before any project is linted) and each project's lint fails on any warning (nx.json).
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.tools/**',
      '.nx/**',
      'coverage/**',
      'reports/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    plugins: { '@nx': nx },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:contract', onlyDependOnLibsWithTags: ['type:contract'] },
            { sourceTag: 'type:infra', onlyDependOnLibsWithTags: ['type:contract', 'type:infra'] },
            { sourceTag: 'type:domain', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:domain'] },
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:domain'] },
            {
              sourceTag: 'type:test',
              onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:domain', 'type:test', 'type:app'],
            },
          ],
        },
      ],
      'no-restricted-properties': [
        'error',
        ...['describe', 'it', 'test'].map((object) => ({
          object,
          property: 'only',
          message: 'Do not commit focused tests.',
        })),
      ],
    },
  },
  {
    // Test utilities (fakes, the scripted LLM) may be imported by specs only.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts'],
    rules: {
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: false,
          depConstraints: [
            { sourceTag: '*', onlyDependOnLibsWithTags: ['type:contract', 'type:infra', 'type:domain', 'type:test'] },
          ],
        },
      ],
    },
  },
  {
    // Tests poke at JSON bodies whose shape they assert; `any` there is the point.
    files: ['**/*.spec.ts', '**/*.int-spec.ts', '**/*.e2e-spec.ts', 'test/**/*.ts', 'libs/testing/**/*.ts'],
    rules: {
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // The workspace test project is the composition root that boots every app's real module; Nx
    // forbids importing apps at all, so the boundary rule stops here. (The bench and evals start
    // the built services through @nl2p/testing and stay under the rule.)
    files: ['test/**/*.ts'],
    rules: { '@nx/enforce-module-boundaries': 'off' },
  },
);
