// Jest's CommonJS runtime cannot `require()` ES modules before Node 24.9, while Node 22 itself can
// (require(esm)), which is how the built services load NestJS 12 (ESM-only). So, in tests only,
// ESM packages under node_modules are compiled to CommonJS by SWC. `import.meta.url` has no
// CommonJS form in SWC's output, so it is rewritten to the file's URL first (without `require`, which such files often redeclare).
const { createTransformer } = require('@swc/jest');

const swc = createTransformer({
  jsc: { parser: { syntax: 'ecmascript' }, target: 'es2022' },
  module: { type: 'commonjs', ignoreDynamic: false },
});

module.exports = {
  canInstrument: false,
  getCacheKey(src, filename, options) {
    return `esm-cjs-v2:${swc.getCacheKey(src, filename, options)}`;
  },
  process(src, filename, options) {
    const patched = src.replace(/\bimport\.meta\.url\b/g, 'new URL("file://" + __filename).href');
    return swc.process(patched, filename, options);
  },
};
