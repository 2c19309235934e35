// The workspace's Jest projects (SWC, ESM shim, throw-away Redis), rooted at bench/ instead of the
// product folders, so `scripts/bench.sh` finds the bench spec without touching the root config.
const path = require('node:path');
const workspace = require('../jest.config.js');

const rootDir = path.resolve(__dirname, '..');
module.exports = {
  rootDir,
  projects: workspace.projects.map((p) => ({ ...p, rootDir, roots: ['<rootDir>/bench'] })),
};
