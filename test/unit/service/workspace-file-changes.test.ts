/**
 * A conditional change of a workspace file (the sync's If-Match) and another write of the same file
 * landing at the same moment (the agent's): the other write is never lost. Without one change of a
 * file at a time, the If-Match check passed on the old version, the other write renamed its version
 * in, and the delete (or the rename) that followed the check took it away.
 *
 * (An agent's write over ACP, in place, takes the same turn; its window is too narrow to hit on purpose.)
 * The old version is large, so its hash (the check) is still being read when the other write lands.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import {
  PreconditionFailed,
  WorkspaceFiles,
  etagOfBytes,
} from '../../../src/service/agent-config/workspace-files';

let root: string;
let files: WorkspaceFiles;
const old = Buffer.alloc(48 * 1024 * 1024, 'o');
const agents = Buffer.from('the agent wrote this meanwhile');

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentdesk-workspace-changes-'));
  files = new WorkspaceFiles(root);
  await files.write(files.parse('notes/c.txt'), old);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** Both changes at once; each either lands or is refused as a moved version, nothing else. */
async function together(sync: Promise<unknown>, agent: Promise<unknown>): Promise<void> {
  const [synced, wrote] = await Promise.allSettled([sync, agent]);
  expect(wrote.status).toBe('fulfilled');
  if (synced.status === 'rejected') expect(synced.reason).toBeInstanceOf(PreconditionFailed);
}

it("a delete that expects the old version never deletes the agent's write made meanwhile", async () => {
  const rel = files.parse('notes/c.txt');
  await together(files.delete(rel, { ifMatch: etagOfBytes(old) }), files.write(rel, agents));
  expect(await readFile(join(root, 'notes/c.txt'), 'utf8')).toBe(agents.toString());
});

it("a write that expects the old version never writes over the agent's write made meanwhile", async () => {
  const rel = files.parse('notes/c.txt');
  const mine = Buffer.from('the person saved this');
  await together(files.write(rel, mine, { ifMatch: etagOfBytes(old) }), files.write(rel, agents));
  // The sync's write went first (then the agent's replaced it: both were the writers' own choice),
  // or it was refused: the agent's version is there either way.
  expect(await readFile(join(root, 'notes/c.txt'), 'utf8')).toBe(agents.toString());
});
