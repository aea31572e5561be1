import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const repo = resolve(import.meta.dirname, '../../..');

async function lineCount(file: string): Promise<number> {
  return (await readFile(join(repo, file), 'utf8')).trimEnd().split('\n').length;
}

/** Every .ts file under a folder of the repo, relative to the repo. */
async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(join(repo, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => relative(repo, join(entry.parentPath, entry.name)));
}

// Issue 20: the composition stays readable at a glance as areas are added, and areas stay small.
describe('module size', () => {
  it('createHost and the bridge declaration each fit on one screen', async () => {
    const files = ['src/core/host/index.ts', 'src/shared/bridge/index.ts', 'src/shared/bridge/areas.ts'];
    const long: string[] = [];
    for (const file of files) if ((await lineCount(file)) > 60) long.push(file);
    expect(long).toEqual([]);
  });

  it('no module of the host, the API client, the bridge or the service routes is over 300 lines', async () => {
    const folders = ['src/core/host', 'src/core/api', 'src/shared/bridge', 'src/service/routes'];
    const files = (await Promise.all(folders.map(sourceFiles))).flat();
    expect(files.length).toBeGreaterThan(40);
    const over: string[] = [];
    for (const file of files) {
      const lines = await lineCount(file);
      if (lines > 300) over.push(`${file}: ${lines} lines`);
    }
    expect(over).toEqual([]);
  });
});
