import { readdir, readFile } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { routes } from '../../../src/shared/api';

const repo = resolve(import.meta.dirname, '../../..');
/** The one place a path of the API is written. */
const routeTable = join(repo, 'src/shared/api/routes') + sep;

/** Every .ts and .tsx file of src/, the route table left out. */
async function sourceFiles(): Promise<string[]> {
  const entries = await readdir(join(repo, 'src'), { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.startsWith(routeTable));
}

/**
 * Each route's fixed start, from the table itself (`/api/v2`, `/oauth2`, `/catalogo`, `/gs-mcp`, ...), so
 * a route added to the table is guarded from then on. Deriving them is why `/catalogo` and `/gs-mcp`
 * are caught now: a hand-kept list (`/api/v2/`, `/oauth2/`, `/archivos`) had missed them.
 */
const prefixes = [
  ...new Set(
    routes.map((route) =>
      route.path
        .split('/')
        .slice(0, route.path.startsWith('/api/') ? 3 : 2)
        .join('/'),
    ),
  ),
];

/** A prefix standing as a path: the whole string, or followed by `/`, `?` or the end of the string. */
const pathPattern = new RegExp(
  `(${prefixes.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})(?:[/?]|$)`,
);

/** Every string and template piece of a source file (comments are not code, so they may name paths). */
function stringsOf(file: string, source: string): string[] {
  const found: string[] = [];
  const visit = (node: ts.Node): void => {
    if (ts.isStringLiteralLike(node) || ts.isTemplateLiteralToken(node)) found.push(node.text);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true));
  return found;
}

const offendersIn = (file: string, source: string) =>
  stringsOf(file, source).filter((text) => pathPattern.test(text));

describe('API paths are written only in the route table (src/shared/api/routes/)', () => {
  it('the guarded prefixes come from the table and include the extensions', () => {
    expect(prefixes).toEqual(
      expect.arrayContaining(['/api/v2', '/oauth2', '/archivos', '/catalogo', '/gs-mcp', '/.well-known']),
    );
  });

  it('the scan catches a prefix in a string, a constant or a template, and not in a comment', () => {
    const source = [
      "// the service answers '/api/v2/me'",
      "export const CATALOG_PATH = '/catalogo/skills';",
      "const LENT = '/gs-mcp';",
      'const url = `${base}/oauth2/authorize`;',
      "const fine = '/data/work/api';",
    ].join('\n');
    expect(offendersIn('x.ts', source)).toEqual(['/catalogo/skills', '/gs-mcp', '/oauth2/authorize']);
  });

  it('no other file of src/ writes one: shared, core, service, the shells and the renderer build them from entries', async () => {
    const files = await sourceFiles();
    expect(files.length).toBeGreaterThan(300);
    const offenders: string[] = [];
    for (const file of files) {
      for (const text of offendersIn(file, await readFile(file, 'utf8'))) {
        offenders.push(`${relative(repo, file)}: ${text}`);
      }
    }
    expect(offenders).toEqual([]);
  });
});
