// Prints the one closing line of the test command: the totals of every Jest tier's JSON report
// (and the fuzz run, counted as one check), as `N passed, N failed[, N skipped]`, so the end of a
// CI log says at a glance what ran. Reads whatever reports exist: a tier that never ran (an
// earlier step failed) is named as not run instead of being counted.
const fs = require('node:fs');
const path = require('node:path');

const [dir, ...tiers] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const notRun = [];
for (const tier of tiers) {
  const file = path.join(dir, `${tier}.json`);
  if (!fs.existsSync(file)) {
    notRun.push(tier);
    continue;
  }
  const r = JSON.parse(fs.readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  // A suite that failed to load has no failed test but must not count as green.
  failed += r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
  skipped += r.numPendingTests + (r.numTodoTests ?? 0);
}
if (notRun.length) console.log(`not run: ${notRun.join(', ')}`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
