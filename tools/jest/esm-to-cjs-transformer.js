// Jest's CommonJS runtime cannot `require()` ES modules before Node 24.9, while Node 22 itself can
// (require(esm)), which is how the built services load NestJS 12 (ESM-only). So, in tests only,
// every ES module under node_modules is compiled to CommonJS by SWC, found the way Node decides a
// file's format (`.mjs`, or `.js` under a package.json with "type": "module"), so no list of ESM
// packages needs keeping; CommonJS files pass through untouched. `import.meta.url` has no CommonJS
// form in SWC's output, so it is rewritten to the file's URL first (without `require`, which such
// files often redeclare).
const { createHash } = require('node:crypto');
const { readFileSync } = require('node:fs');
const { dirname, join } = require('node:path');
const { createTransformer } = require('@swc/jest');

const swc = createTransformer({
  jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
  module: { type: 'commonjs', ignoreDynamic: false },
});

/** The "type" of the nearest package.json above each directory, memoised per directory. */
const packageTypes = new Map();

function packageType(dir) {
  const known = packageTypes.get(dir);
  if (known !== undefined) return known;
  let type;
  try {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    type = manifest.type === 'module' ? 'module' : 'commonjs';
  } catch {
    const parent = dirname(dir);
    type = parent === dir ? 'commonjs' : packageType(parent);
  }
  packageTypes.set(dir, type);
  return type;
}

function isEsModule(filename) {
  if (filename.endsWith('.mjs')) return true;
  if (filename.endsWith('.cjs')) return false;
  return packageType(dirname(filename)) === 'module';
}

module.exports = {
  canInstrument: false,
  getCacheKey(src, filename, options) {
    if (!isEsModule(filename)) return `cjs-as-is-v1:${createHash('sha1').update(src).digest('hex')}`;
    return `esm-cjs-v3:${swc.getCacheKey(src, filename, options)}`;
  },
  process(src, filename, options) {
    if (!isEsModule(filename)) return { code: src };
    const patched = src.replace(/\bimport\.meta\.url\b/g, 'new URL("file://" + __filename).href');
    return swc.process(patched, filename, options);
  },
};
