import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../src/shared/api';

const repo = resolve(import.meta.dirname, '../../..');

/** Every .ts file under a folder of the repo. */
async function sourceFiles(folder: string): Promise<string[]> {
  const entries = await readdir(join(repo, folder), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** A route's fixed first segments (`/api/v2/`, `/oauth2/`, ...), as they would appear in a string literal. */
const prefixes = [
  ...new Set(
    routes.map((route) => {
      const segments = route.path.split('/').slice(0, route.path.startsWith('/api/') ? 3 : 2);
      return `${segments.join('/')}/`;
    }),
  ),
];

/** String literals (quoted or template) of a source file, comments left out. */
function literals(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  return [...code.matchAll(/'[^'\n]*'|"[^"\n]*"|`[^`]*`/g)].map((match) => match[0]);
}

// The route table in shared/api/routes/ is the one place a path of the API is written.
describe('API paths', () => {
  it('the client side (src/core) writes no API path: it calls route entries', async () => {
    expect(prefixes).toEqual(expect.arrayContaining(['/api/v2/', '/oauth2/']));
    const offenders: string[] = [];
    for (const file of await sourceFiles('src/core')) {
      const found = literals(await readFile(file, 'utf8')).filter((text) =>
        prefixes.some((prefix) => text.includes(prefix)),
      );
      for (const text of found) offenders.push(`${relative(repo, file)}: ${text}`);
    }
    expect(offenders).toEqual([]);
  });
});
