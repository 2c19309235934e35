// Maps the tsconfig path aliases (@nl2p/*) to their sources, so Jest resolves libs like tsc does.
const { compilerOptions } = require('../../tsconfig.base.json');
const path = require('node:path');

function pathsToModuleNameMapper() {
  const root = path.resolve(__dirname, '../..');
  const mapper = {};
  for (const [alias, [target]] of Object.entries(compilerOptions.paths)) {
    mapper[`^${alias.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}$`] = path.join(root, target);
  }
  return mapper;
}

module.exports = { pathsToModuleNameMapper };
