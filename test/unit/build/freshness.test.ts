import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  BUILD_OUTPUTS,
  STAMP_FILE,
  checkBuild,
  inputsDigest,
  judgeBuild,
  listInputs,
} from '../../../scripts/build/freshness';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentdesk-freshness-'));
  await mkdir(join(root, 'src/deep'), { recursive: true });
  await writeFile(join(root, 'src/a.ts'), 'a');
  await writeFile(join(root, 'src/deep/b.ts'), 'b');
  await writeFile(join(root, 'package.json'), '{}');
});
afterEach(() => rm(root, { recursive: true, force: true }));

const digestNow = async () => inputsDigest(root, await listInputs(root, ['src', 'package.json', 'missing']));

describe('build inputs', () => {
  it('lists every file under the inputs, sorted, skipping inputs that do not exist', async () => {
    expect(await listInputs(root, ['src', 'package.json', 'missing'])).toEqual([
      'package.json',
      'src/a.ts',
      'src/deep/b.ts',
    ]);
  });

  it('digests the same tree alike, and differently after an edit, an addition or a rename', async () => {
    const first = await digestNow();
    expect(await digestNow()).toBe(first);
    await writeFile(join(root, 'src/a.ts'), 'a2');
    const edited = await digestNow();
    expect(edited).not.toBe(first);
    await writeFile(join(root, 'src/c.ts'), '');
    const added = await digestNow();
    expect(added).not.toBe(edited);
    await rm(join(root, 'src/c.ts'));
    await writeFile(join(root, 'src/d.ts'), '');
    expect(await digestNow()).not.toBe(added);
  });

  it('does not confuse content moved across a file boundary', async () => {
    await writeFile(join(root, 'src/a.ts'), 'ab');
    await writeFile(join(root, 'src/deep/b.ts'), '');
    const one = await digestNow();
    await writeFile(join(root, 'src/a.ts'), 'a');
    await writeFile(join(root, 'src/deep/b.ts'), 'b');
    expect(await digestNow()).not.toBe(one);
  });
});

describe('judgeBuild', () => {
  it('is fresh only with every output present and the stamp matching the digest', () => {
    expect(judgeBuild('abc\n', 'abc', [])).toEqual({ fresh: true });
    expect(judgeBuild('abc', 'abd', [])).toEqual({
      fresh: false,
      reason: 'the sources changed since the last build',
    });
    expect(judgeBuild(undefined, 'abc', [])).toMatchObject({ fresh: false });
    expect(judgeBuild('abc', 'abc', ['out/node/cli.js'])).toEqual({
      fresh: false,
      reason: 'out/node/cli.js is missing',
    });
  });
});

describe('checkBuild', () => {
  it('finds a build fresh once every output is there and the stamp holds the digest of the sources', async () => {
    expect(await checkBuild(root)).toMatchObject({ fresh: false, reason: `${BUILD_OUTPUTS[0]} is missing` });
    for (const output of BUILD_OUTPUTS) {
      await mkdir(join(root, output, '..'), { recursive: true });
      await writeFile(join(root, output), '');
    }
    const stale = await checkBuild(root);
    expect(stale).toMatchObject({ fresh: false, reason: 'no record of what the last build was made from' });
    await writeFile(join(root, STAMP_FILE), `${stale.digest}\n`);
    expect(await checkBuild(root)).toMatchObject({ fresh: true });
    await writeFile(join(root, 'src/a.ts'), 'changed');
    expect(await checkBuild(root)).toMatchObject({
      fresh: false,
      reason: 'the sources changed since the last build',
    });
  });
});
