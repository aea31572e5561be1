/**
 * A delete of the last file in a folder removes the folder, which listings never show empty. A write of
 * another file into that folder at the same moment made its parents before the delete's prune ran, and
 * found them gone when it opened its temp file: the write failed (ENOENT), though nothing was wrong with
 * it. Seen once under load as a failure of workspace-file-changes.test.ts; here many times at once.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { WorkspaceFiles } from '../../../src/service/agent-config/workspace-files';
import { writeWorkspaceFile } from '../../../src/service/workspace/workspace-io';

let root: string;
let files: WorkspaceFiles;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentdesk-workspace-prune-'));
  files = new WorkspaceFiles(root);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const rounds = 200;

/** Resolves after `turns` turns of the event loop (each a round of I/O callbacks). */
async function later(turns: number): Promise<void> {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** Each round: a folder with one file, deleted while `write` puts another file there; what it wrote, per round. */
async function raced(write: (folder: string, text: string) => Promise<unknown>) {
  const outcomes = await Promise.allSettled(
    Array.from({ length: rounds }, async (_, i) => {
      const folder = `f${i}`;
      await files.write(files.parse(`${folder}/old.txt`), Buffer.from('old'));
      await Promise.all([
        files.delete(files.parse(`${folder}/old.txt`)),
        // Started a little later from round to round, so the write meets the delete at each of its steps.
        later(i % 8).then(() => write(folder, `new ${i}`)),
      ]);
      return readFile(join(root, folder, 'new.txt'), 'utf8');
    }),
  );
  return outcomes;
}

it('a write of the sync (through the API) into a folder whose last file is being deleted lands, every time', async () => {
  const outcomes = await raced((folder, text) =>
    files.write(files.parse(`${folder}/new.txt`), Buffer.from(text)),
  );
  expectAllWritten(outcomes);
});

it("an agent's write (over ACP) into a folder whose last file is being deleted lands, every time", async () => {
  const outcomes = await raced((folder, text) =>
    writeWorkspaceFile(root, join(root, folder, 'new.txt'), text),
  );
  expectAllWritten(outcomes);
});

function expectAllWritten(outcomes: PromiseSettledResult<string>[]): void {
  const failed = outcomes
    .filter((o) => o.status === 'rejected')
    .map((o) => String((o as PromiseRejectedResult).reason));
  expect(failed).toEqual([]);
  expect(outcomes.map((o) => (o as PromiseFulfilledResult<string>).value)).toEqual(
    Array.from({ length: rounds }, (_, i) => `new ${i}`),
  );
}
