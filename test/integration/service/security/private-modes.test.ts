import { execFile } from 'node:child_process';
import { chmod, mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makePrivateDataDir } from '../../../../src/core/profiles/data-dir';
import { startTestService } from '../../../support/local-service';
import { serviceFromSource } from '../../../support/service-process';
import { testStore } from '../../../support/test-store';

// Another user of the computer must not read conversations, password hashes or workspaces: real folders,
// real modes (POSIX; Windows relies on the per-user profile folder's ACL).
const mode = async (path: string) => (await stat(path)).mode & 0o777;
let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'agentdesk-modes-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe.runIf(process.platform !== 'win32')('private by default', () => {
  it('the service creates its data folder 0700 and its database files 0600', async () => {
    const dataDir = join(root, 'fresh', 'data');
    const service = await startTestService({ dataDir });
    try {
      expect(await mode(dataDir)).toBe(0o700);
      if (testStore() === 'file') {
        expect(await mode(join(dataDir, 'service.db'))).toBe(0o600);
        expect(await mode(join(dataDir, 'service.db-wal'))).toBe(0o600);
      } else {
        // On PostgreSQL the tables are in the server: no database file is made here.
        await expect(stat(join(dataDir, 'service.db'))).rejects.toThrow();
      }
    } finally {
      await service.close();
    }
  });

  it('the service tightens an existing world-readable data folder', async () => {
    const dataDir = join(root, 'existing');
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    const service = await startTestService({ dataDir });
    await service.close();
    expect(await mode(dataDir)).toBe(0o700);
  });

  it('the app and the CLI make their data folder private, new or existing', async () => {
    const fresh = join(root, 'app', 'AgentDesk');
    await makePrivateDataDir(fresh);
    expect(await mode(fresh)).toBe(0o700);
    const existing = join(root, 'app-existing');
    await mkdir(existing);
    await chmod(existing, 0o755);
    await makePrivateDataDir(existing);
    expect(await mode(existing)).toBe(0o700);
  });

  it('`npm run service -- user add` creates private files whatever the caller umask', async () => {
    const dataDir = join(root, 'cli-data');
    await promisify(execFile)(process.execPath, [
      ...serviceFromSource,
      'user',
      'add',
      '--email',
      'a@example.test',
      '--password',
      'abcdefgh1',
      '--data',
      dataDir,
    ]);
    expect(await mode(dataDir)).toBe(0o700);
    expect(await mode(join(dataDir, 'service.db'))).toBe(0o600);
  }, 30_000);
});
