import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';

/**
 * Whether out/ was built from the sources as they are now: a digest of every input's path and
 * content, kept next to the outputs by the last build. Content, not times, so a checkout or a
 * touched file that reads the same does not cost a build.
 */

/** What a build reads, relative to the repository. Folders are read whole. */
export const BUILD_INPUTS = [
  'src',
  'resources',
  'scripts/build',
  'scripts/build.ts',
  'package.json',
  'package-lock.json',
  'electron.vite.config.ts',
  'tsconfig.base.json',
  'tsconfig.json',
  'tsconfig.web.json',
];

/** What a build writes; a missing one means there is no usable build whatever the stamp says. */
export const BUILD_OUTPUTS = [
  'out/main/index.js',
  'out/preload/index.cjs',
  'out/renderer/index.html',
  'out/node/cli.js',
  'out/node/web.js',
  'out/node/demo-agent.js',
  'out/node/model-agent.js',
  'out/node/memory-writer.js',
  'out/main/memory-writer.js',
  'out/node/extension-operations.js',
  'out/main/extension-operations.js',
  'out/node/service.js',
  'out/node/build-check.js',
];

export const STAMP_FILE = 'out/.build-inputs';

/** Every file under the inputs that exist, as sorted repository-relative paths with '/'. */
export async function listInputs(root: string, inputs: readonly string[] = BUILD_INPUTS): Promise<string[]> {
  const files: string[] = [];
  const walk = async (path: string): Promise<void> => {
    const entries = await readdir(path, { withFileTypes: true }).catch(() => null);
    if (!entries) {
      if (existsSync(path)) files.push(relative(root, path).split(sep).join('/'));
      return;
    }
    await Promise.all(entries.map((entry) => walk(join(path, entry.name))));
  };
  await Promise.all(inputs.map((input) => walk(join(root, input))));
  return files.sort();
}

/** The digest of `files` (paths and contents), the same on every machine for the same tree. */
export async function inputsDigest(root: string, files: readonly string[]): Promise<string> {
  const contents = await Promise.all(files.map((file) => readFile(join(root, file))));
  const hash = createHash('sha256');
  files.forEach((file, index) => {
    const content = contents[index]!;
    hash.update(`${file}\0${content.length}\0`);
    hash.update(content);
  });
  return hash.digest('hex');
}

export type Freshness = { fresh: true } | { fresh: false; reason: string };

/** Judges a build by its stamp (the digest it was made from) and whether its outputs are there. */
export function judgeBuild(
  stamp: string | undefined,
  digest: string,
  missingOutputs: readonly string[],
): Freshness {
  if (missingOutputs.length > 0) return { fresh: false, reason: `${missingOutputs[0]} is missing` };
  if (stamp === undefined) return { fresh: false, reason: 'no record of what the last build was made from' };
  if (stamp.trim() !== digest) return { fresh: false, reason: 'the sources changed since the last build' };
  return { fresh: true };
}

/** The build in `root` judged against its sources now, with the digest a new build would record. */
export async function checkBuild(root: string): Promise<Freshness & { digest: string }> {
  const digest = await inputsDigest(root, await listInputs(root));
  const stamp = await readFile(join(root, STAMP_FILE), 'utf8').catch(() => undefined);
  const missing = BUILD_OUTPUTS.filter((file) => !existsSync(join(root, file)));
  return { ...judgeBuild(stamp, digest, missing), digest };
}
