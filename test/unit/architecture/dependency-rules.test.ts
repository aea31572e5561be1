import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = resolve(import.meta.dirname, '../../..');
const depcruise = join(repo, 'node_modules/.bin/depcruise');
const config = join(repo, '.dependency-cruiser.cjs');

/** Runs dependency-cruiser with the project's rules; resolves to its exit code and output. */
async function cruise(cwd: string): Promise<{ code: number; output: string }> {
  try {
    const { stdout } = await run(depcruise, ['src', '--config', config], { cwd });
    return { code: 0, output: stdout };
  } catch (error) {
    const failure = error as { code: number; stdout: string; stderr: string };
    return { code: failure.code, output: failure.stdout + failure.stderr };
  }
}

/** Builds a throwaway tree of source files in a temp folder. */
async function tree(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'agentdesk-depcruise-'));
  await writeFile(join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext' } }));
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), text);
  }
  return root;
}

/** Each forbidden import: what it is, the file that makes it, its source, the rule that must catch it. */
const forbidden: [string, string, string, string][] = [
  [
    'shared importing core',
    'src/shared/a.ts',
    "import { b } from '../core/b';\nexport const a = b;\n",
    'shared-imports-nothing-of-ours',
  ],
  [
    'renderer importing core',
    'src/renderer/a.ts',
    "import { b } from '../core/b';\nexport const a = b;\n",
    'renderer-imports-only-shared',
  ],
  [
    'service importing core',
    'src/service/a.ts',
    "import { b } from '../core/b';\nexport const a = b;\n",
    'service-imports-only-shared-api',
  ],
  [
    'core importing main',
    'src/core/a.ts',
    "import { m } from '../main/m';\nexport const a = m;\n",
    'core-imports-only-shared',
  ],
  [
    'core importing electron',
    'src/core/a.ts',
    "import { app } from 'electron';\nexport const a = app;\n",
    'core-never-imports-electron',
  ],
  [
    'cli importing renderer',
    'src/cli/a.ts',
    "import { r } from '../renderer/r';\nexport const a = r;\n",
    'hosts-import-core-shared-and-the-service-entry',
  ],
  [
    'the CLI loading the service at its start',
    'src/cli/a.ts',
    "import { startService } from '../service/index';\nexport const a = startService;\n",
    'cli-loads-the-service-only-when-used',
  ],
  [
    'the renderer model importing a store',
    'src/renderer/model/a.ts',
    "import { s } from '../stores/s';\nexport const a = s;\n",
    'renderer-model-is-pure',
  ],
  [
    'a store importing a feature',
    'src/renderer/stores/a.ts',
    "import { f } from '../features/chat/f';\nexport const a = f;\n",
    'renderer-stores-never-import-features',
  ],
  [
    'a feature importing another feature',
    'src/renderer/features/agent-config/a.ts',
    "import { f } from '../chat/f';\nexport const a = f;\n",
    'renderer-no-feature-imports-another',
  ],
  [
    'a host area importing another area',
    'src/core/host/agents/a.ts',
    "import { s } from '../session/s';\nexport const a = s;\n",
    'host-area-imports-no-other-area',
  ],
  [
    'host plumbing importing an area',
    'src/core/host/plumbing/a.ts',
    "import { s } from '../session/s';\nexport const a = s;\n",
    'host-plumbing-imports-no-area',
  ],
  [
    'a core room importing a room above it',
    'src/core/api/a.ts',
    "import { s } from '../host/session/s';\nexport const a = s;\n",
    'core-no-back-up-arrow-from-api',
  ],
  [
    'a core room left out of the order',
    'src/core/auth/a.ts',
    "import { n } from '../newroom/n';\nexport const a = n;\n",
    'core-room-is-listed',
  ],
  [
    'the CLI reaching past the sync door',
    'src/cli/a.ts',
    "import { e } from '../core/sync/engine/e';\nexport const a = e;\n",
    'sync-only-through-its-door',
  ],
  [
    'a sync room importing a room above it',
    'src/core/sync/state/a.ts',
    "import { e } from '../engine/e';\nexport const a = e;\n",
    'sync-state-imports-no-room-above',
  ],
  [
    'sync planning touching the disk',
    'src/core/sync/plan/a.ts',
    "import { readFile } from 'node:fs/promises';\nexport const a = readFile;\n",
    'sync-plan-is-pure',
  ],
];

// Every forbidden import sits in one throwaway tree, each in a file of its own, so one cruise (a
// couple of seconds of dependency-cruiser loading TypeScript) checks them all; each case then looks
// for its own rule reported against its own file. That the project itself passes is `npm run deps`,
// run by the check stage of `npm test`.
describe('architecture doors (dependency-cruiser)', () => {
  const fileOf = (index: number, file: string) => file.replace(/a\.ts$/, `a${index}.ts`);
  let root: string;
  let result: { code: number; output: string };

  beforeAll(async () => {
    root = await tree({
      ...Object.fromEntries(forbidden.map(([, file, source], i) => [fileOf(i, file), source])),
      'src/core/b.ts': 'export const b = 1;\n',
      'src/main/m.ts': 'export const m = 1;\n',
      'src/renderer/r.ts': 'export const r = 1;\n',
      'src/renderer/stores/s.ts': 'export const s = 1;\n',
      'src/renderer/features/chat/f.ts': 'export const f = 1;\n',
      'src/core/host/session/s.ts': 'export const s = 1;\n',
      'src/core/sync/engine/e.ts': 'export const e = 1;\n',
      'src/core/newroom/n.ts': 'export const n = 1;\n',
      'src/service/index.ts': 'export const startService = 1;\n',
    });
    result = await cruise(root);
  }, 90_000);
  afterAll(() => rm(root, { recursive: true, force: true }));

  it('fails when a door is broken', () => {
    expect(result.code).not.toBe(0);
  });

  it.each(forbidden.map((row, i) => [...row, i] as const))('catches %s', (_name, file, _source, rule, i) => {
    expect(result.output).toContain(`${rule}: ${fileOf(i, file)} →`);
  });
});
