import { mkdir, mkdtemp, readFile, rm, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  readBundle,
  writeBundleFolder,
  writeBundleZip,
} from '../../../src/core/host/agent-config/bundle-on-disk';

// Bundles written to and read from real folders and zip files in a temp directory.

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-bundle-disk-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const b64 = (text: string) => Buffer.from(text).toString('base64');
const bundle = {
  layout: 'dir' as const,
  files: [
    { path: 'instructions.md', contentBase64: b64('You sell flowers.\n') },
    { path: 'knowledge/hours.md', contentBase64: b64('9 to 5\n') },
  ],
};

describe('bundles on disk', () => {
  it('a folder and a zip written out read back as the same bundle', async () => {
    expect(await writeBundleFolder(bundle, join(dir, 'folder'))).toEqual({ ok: true, value: 2 });
    expect(await readFile(join(dir, 'folder', 'knowledge', 'hours.md'), 'utf8')).toBe('9 to 5\n');
    expect(await writeBundleZip(bundle, join(dir, 'out', 'agent.zip'))).toEqual({ ok: true, value: 2 });
    for (const path of [join(dir, 'folder'), join(dir, 'out', 'agent.zip')]) {
      const read = await readBundle(path);
      expect(read.ok && [...read.value.files].sort((a, b) => a.path.localeCompare(b.path))).toEqual(
        bundle.files,
      );
    }
  });

  it('never writes outside the chosen folder', async () => {
    const escape = { files: [{ path: '../outside.md', contentBase64: b64('x') }] };
    const written = await writeBundleFolder(escape, join(dir, 'folder'));
    expect(written.ok).toBe(false);
    await expect(readFile(join(dir, 'outside.md'))).rejects.toThrow();
  });

  it('refuses a file over 10 MB before sending, from a folder or from the zip headers', async () => {
    await mkdir(join(dir, 'big'), { recursive: true });
    await writeFile(join(dir, 'big', 'instructions.md'), 'hi');
    await writeFile(join(dir, 'big', 'video.bin'), '');
    await truncate(join(dir, 'big', 'video.bin'), 10 * 1024 * 1024 + 1);
    const fromFolder = await readBundle(join(dir, 'big'));
    expect(fromFolder.ok ? '' : fromFolder.message).toContain(
      'video.bin is 10.0 MB; a file to import may be at most 10 MB',
    );

    await writeFile(join(dir, 'big.zip'), zipSync({ 'video.bin': new Uint8Array(10 * 1024 * 1024 + 1) }));
    const fromZip = await readBundle(join(dir, 'big.zip'));
    expect(fromZip.ok ? '' : fromZip.message).toContain('a file to import may be at most 10 MB');
  });

  it('says plainly when nothing or something unreadable is there', async () => {
    const missing = await readBundle(join(dir, 'nope'));
    expect(missing.ok ? '' : missing.message).toContain('Nothing is at');
    await writeFile(join(dir, 'not.zip'), 'plain text');
    const bad = await readBundle(join(dir, 'not.zip'));
    expect(bad.ok ? '' : bad.message).toContain('neither a folder nor a readable .zip');
  });
});
