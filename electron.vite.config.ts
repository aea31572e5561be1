import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { rendererCsp, withCspMeta } from './src/core/renderer-csp';

/** index.html gets its CSP meta element from the one policy, in the build and on the dev server alike. */
const cspMeta = {
  name: 'agentdesk-csp-meta',
  transformIndexHtml: (html: string) => withCspMeta(html, rendererCsp()),
};

// Main and preload are Node/Electron bundles; the renderer is a plain web app,
// the same one browser mode serves.
export default defineConfig({
  main: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: {
          index: resolve('src/main/index.ts'),
          // The built-in demo agent, prebuilt so the packaged app runs it with ELECTRON_RUN_AS_NODE.
          'demo-agent': resolve('src/service/demo-agent/main.ts'),
          // The built-in model agent (engine-e), run the same way.
          'model-agent': resolve('src/service/model-agent/main.ts'),
          // The memory store's writer thread (src/core/memory/memory-writer.ts), named by src/main/index.ts.
          'memory-writer': resolve('src/core/memory/memory-writer-thread.ts'),
          // The thread reading a server's /openapi.yaml (src/core/api/extension-operations-reader.ts).
          'extension-operations': resolve('src/core/api/extension-operations-thread.ts'),
        },
      },
    },
  },
  preload: {
    build: {
      externalizeDeps: true,
      rollupOptions: {
        input: { index: resolve('src/preload/index.ts') },
        // A sandboxed preload must be a single CommonJS file.
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [react(), cspMeta],
    build: {
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
      // electron-vite leaves the renderer unminified; the window parses this script on every start.
      minify: true,
      // Which chunks the first screen loads (test/unit/tooling/first-screen-size.test.ts reads it).
      manifest: true,
    },
  },
});
