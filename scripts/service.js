// `npm run service`: the local service alone, from the built code (out/node/service.js) when the build
// matches the sources, as the app and browser mode run it; otherwise from the TypeScript sources under
// tsx, so editing the service and running it again needs no build. Plain JavaScript run by Node.
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = new URL('../out/node/build-check.js', import.meta.url);
const built = new URL('../out/node/service.js', import.meta.url);
const fresh = existsSync(check) && (await (await import(check.href)).checkBuild(root)).fresh;
if (fresh) {
  // The service reads this process's own arguments (npm run service -- --port 8787).
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/service/cli.ts', import.meta.url).href);
}
