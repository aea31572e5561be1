import { rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { build } from 'esbuild';

/**
 * The Node programs as built JavaScript in out/node/: the `agentdesk` CLI, browser mode (`npm run
 * web`), the service alone (`npm run service`) and the demo and model agents they start. Each program is its own bundle, split at its dynamic imports
 * so a command loads only what it runs (`agentdesk --help` loads neither the service nor the host).
 * Native modules stay outside, and so do packages that find files next to their own code.
 */

const PROGRAMS = {
  cli: 'src/cli/main.ts',
  web: 'src/browser/main.ts',
  'demo-agent': 'src/service/demo-agent/main.ts',
  'model-agent': 'src/service/model-agent/main.ts',
  // The memory store's writer thread (src/core/memory/memory-writer.ts finds it beside the host's code).
  'memory-writer': 'src/core/memory/memory-writer-thread.ts',
  // The thread reading a server's /openapi.yaml (src/core/api/extension-operations-reader.ts finds it alike).
  'extension-operations': 'src/core/api/extension-operations-thread.ts',
  // `npm run service` (scripts/service.js) when the build is fresh, and the service the tests spawn.
  service: 'src/service/cli.ts',
  // The check scripts/web.js runs before browser mode, built so it needs no TypeScript loader.
  'build-check': 'scripts/build/freshness.ts',
};

/** Installed with the package (dependencies), loaded from node_modules at run time. */
export const EXTERNAL_PACKAGES = ['libsql', '@napi-rs/keyring', 'open', 'trash', 'electron'];

// Bundled CommonJS packages call require(); an ES module has none, so each file makes one.
const REQUIRE_SHIM =
  "import { createRequire as agentdeskCreateRequire } from 'node:module';\n" +
  'const require = agentdeskCreateRequire(import.meta.url);';

export async function buildNodePrograms(root: string): Promise<void> {
  // Built aside and swapped in, so a failed build leaves the last good one in place, and two builds
  // at once (two terminals, a test's npm pack) never mix their files: the last to finish wins whole.
  const target = join(root, 'out/node');
  const outdir = `${target}.next-${process.pid}`;
  const old = `${target}.old-${process.pid}`;
  await rm(outdir, { recursive: true, force: true });
  for (const [name, entry] of Object.entries(PROGRAMS)) {
    await build({
      absWorkingDir: root,
      entryPoints: { [name]: entry },
      outdir,
      bundle: true,
      splitting: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      external: EXTERNAL_PACKAGES,
      // All of a program's files in one folder, so a file finds its neighbours (the demo agent) alike.
      chunkNames: `${name}-[hash]`,
      banner: { js: REQUIRE_SHIM },
      sourcemap: 'linked',
      logLevel: 'warning',
    });
  }
  await rename(target, old).catch(() => undefined);
  await rename(outdir, target).catch(async () => {
    await rm(target, { recursive: true, force: true });
    await rename(outdir, target);
  });
  await rm(old, { recursive: true, force: true });
}
