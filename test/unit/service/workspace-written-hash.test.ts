/**
 * Issue 30: a file the service writes into a workspace is not read back by the next listing. Its
 * hash is known from the bytes, and remembered for the file the rename put in place; after a first
 * sync of 100,000 files the engine's start had waited for every one of them to be hashed again.
 * A file the agent changed since (in place, or by a rename of its own) is read again. Real disk.
 */
import { createHash } from 'node:crypto';
import { lstatSync } from 'node:fs';
import { mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { WorkspaceFiles } from '../../../src/service/agent-config/workspace-files';
import { workspaceHashes } from '../../../src/service/workspace/content-hash-cache';

let root: string;
let files: WorkspaceFiles;
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const remembered = (rel: string) => workspaceHashes.cached(join(root, rel), lstatSync(join(root, rel)));

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentdesk-written-hash-'));
  files = new WorkspaceFiles(root);
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

it('remembers the hash of the bytes it wrote, for the file it wrote', async () => {
  await files.write(files.parse('notes/a.txt'), Buffer.from('written by the service'));
  expect(remembered('notes/a.txt')).toBe(sha256('written by the service'));
  const listing = await files.list(files.parse('', { allowRoot: true }));
  expect(listing.files).toEqual([
    expect.objectContaining({ path: 'notes/a.txt', sha256: sha256('written by the service') }),
  ]);
});

it('forgets it once the agent rewrote the file in place or renamed another over it', async () => {
  await files.write(files.parse('b.txt'), Buffer.from('first'));
  await files.write(files.parse('c.txt'), Buffer.from('first'));
  await writeFile(join(root, 'b.txt'), 'the agent, in place');
  await writeFile(join(root, 'staged'), 'the agent, renamed in');
  await rename(join(root, 'staged'), join(root, 'c.txt'));
  expect(remembered('b.txt')).toBeUndefined();
  expect(remembered('c.txt')).toBeUndefined();
  const listing = await files.list(files.parse('', { allowRoot: true }));
  const hashOf = (path: string) => listing.files.find((file) => file.path === path)?.sha256;
  expect(hashOf('b.txt')).toBe(sha256('the agent, in place'));
  expect(hashOf('c.txt')).toBe(sha256('the agent, renamed in'));
});
