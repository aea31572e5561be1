/**
 * `npm run build`: the Electron app and renderer (electron-vite) and the Node programs (esbuild,
 * out/node/), then a record of the inputs they were made from. `--if-stale` builds only when that
 * record no longer matches the sources (what `npm run web` and `npm pack` use).
 */
import { spawnSync } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { STAMP_FILE, checkBuild } from './build/freshness';

const root = resolve(import.meta.dirname, '..');

async function main(): Promise<number> {
  const onlyIfStale = process.argv.includes('--if-stale');
  const verdict = await checkBuild(root);
  if (onlyIfStale) {
    if (verdict.fresh) return 0;
    console.log(`Building (${verdict.reason}).`);
  }
  const { digest } = verdict;
  const vite = spawnSync(
    process.execPath,
    [join(root, 'node_modules/electron-vite/bin/electron-vite.js'), 'build'],
    {
      cwd: root,
      stdio: 'inherit',
    },
  );
  if (vite.status !== 0) return vite.status ?? 1;
  const { buildNodePrograms } = await import('./build/node-bundles');
  await buildNodePrograms(root);
  // The digest taken before building: a source edited meanwhile makes the next check build again.
  await writeFile(join(root, STAMP_FILE), `${digest}\n`);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`The build failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
