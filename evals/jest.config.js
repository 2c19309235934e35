// The workspace's Jest projects (SWC, ESM shim, throw-away Redis), rooted at evals/ instead of the
// product folders, so `scripts/eval.sh` finds the eval specs without touching the root config.
const path = require('node:path');
const workspace = require('../jest.config.js');

const rootDir = path.resolve(__dirname, '..');
module.exports = {
  rootDir,
  projects: workspace.projects.map((p) => ({ ...p, rootDir, roots: ['<rootDir>/evals'] })),
};
