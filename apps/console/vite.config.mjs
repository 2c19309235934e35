// The web console: built by `npm run build` into dist/console, which the gateway serves at /console/.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import preact from '@preact/preset-vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: here,
  base: '/console/',
  plugins: [preact()],
  // The gateway's generated client, from its source (the workspace's path alias).
  resolve: {
    alias: {
      '@nl2p/gateway-client': fileURLToPath(
        new URL('../../libs/contracts/gateway-client/src/index.ts', import.meta.url),
      ),
    },
  },
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('../../dist/console', import.meta.url)),
    emptyOutDir: true,
    sourcemap: true,
  },
});
