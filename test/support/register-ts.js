// Lets a child process run TypeScript sources directly, compiled on require with SWC as Jest
// compiles them: the integration tier tests process entry points (the MCP server on stdio)
// before any build. Usage: node -r ./test/support/register-ts.js apps/…/main.ts
const fs = require('node:fs');
const Module = require('node:module');
const { transformSync } = require('@swc/core');

Module._extensions['.ts'] = function compileTypeScript(module, filename) {
  const { code } = transformSync(fs.readFileSync(filename, 'utf8'), {
    filename,
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true },
      target: 'es2022',
    },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  });
  module._compile(code, filename);
};

// The workspace's path aliases (@nl2p/*), resolved to their sources as tsc and Jest do.
const { compilerOptions } = require('../../tsconfig.base.json');
const path = require('node:path');
const root = path.resolve(__dirname, '../..');
const aliases = new Map(
  Object.entries(compilerOptions.paths).map(([alias, [target]]) => [alias, path.join(root, target)]),
);
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function resolveWorkspaceAlias(request, ...rest) {
  return resolveFilename.call(this, aliases.get(request) ?? request, ...rest);
};
