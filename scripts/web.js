// `npm run web`: browser mode from the built code, building first only when the sources changed. Plain
// JavaScript run by Node, and the check it runs is built too (out/node/build-check.js), so an unchanged
// tree starts without a TypeScript loader; the build itself runs scripts/build.ts under tsx.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = new URL('../out/node/build-check.js', import.meta.url);
const verdict = existsSync(check)
  ? await (await import(check.href)).checkBuild(root)
  : { fresh: false, reason: 'there is no build yet' };
if (!verdict.fresh) {
  console.log(`Building (${verdict.reason}).`);
  const tsx = fileURLToPath(new URL('../node_modules/tsx/dist/cli.mjs', import.meta.url));
  const build = spawnSync(process.execPath, [tsx, 'scripts/build.ts'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
// Browser mode reads this process's own arguments (npm run web -- --port 8080).
await import(new URL('../out/node/web.js', import.meta.url).href);
