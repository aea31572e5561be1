import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';

/**
 * Where a worker thread's code is, for `new Worker(entry, { eval: typeof entry === 'string' })`: the file an
 * environment variable names (the Electron main process names its own build), else the built bundle beside
 * the caller's (out/node/, out/main/), else the TypeScript source, loaded through tsx's loader registered in
 * the thread first (dev, tests): a worker does not take `--import` in its execArgv.
 */
export function threadEntry(thread: { named: string | undefined; built: URL; source: URL }): URL | string {
  if (thread.named) return pathToFileURL(thread.named);
  if (thread.built.protocol === 'file:' && existsSync(fileURLToPath(thread.built))) return thread.built;
  // tsx's ES module API (its package exports it beside the CommonJS one require finds).
  const tsx = pathToFileURL(
    createRequire(import.meta.url)
      .resolve('tsx/esm/api')
      .replace(/\.cjs$/, '.mjs'),
  ).href;
  const source = JSON.stringify(thread.source.href);
  return `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${source}); });`;
}
