module.exports = async function globalTeardown() {
  await globalThis.__NL2P_REDIS__?.stop();
};
