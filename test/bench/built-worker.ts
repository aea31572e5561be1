/**
 * A bench's worker as built JavaScript, as the app and the CLI run the engine: under tsx a loader
 * thread of its own spent about a third of the idle CPU the watch bench measured. Built here with
 * esbuild (not by scripts/build), so `npm run bench -- --against <ref>` builds both revisions'
 * workers alike: only test/bench/ is carried over to the other revision.
 */
import { join } from 'node:path';
import { build } from 'esbuild';

// Bundled CommonJS packages call require(); an ES module has none.
const requireShim =
  "import { createRequire as benchCreateRequire } from 'node:module';\n" +
  'const require = benchCreateRequire(import.meta.url);';

const built = new Map<string, Promise<string>>();

/** Bundles `entry` (relative to `repo`) into `repo`/out/bench/, once per run; resolves to the file. */
export function builtWorker(repo: string, name: string, entry: string): Promise<string> {
  let file = built.get(name);
  if (!file) {
    const outfile = join(repo, 'out/bench', `${name}.mjs`);
    file = build({
      absWorkingDir: repo,
      entryPoints: [entry],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20.19',
      // Native: loaded from node_modules, beside which out/ lies.
      external: ['libsql'],
      banner: { js: requireShim },
      logLevel: 'warning',
    }).then(() => outfile);
    built.set(name, file);
  }
  return file;
}
