/**
 * Issue 12, item 3's layout for a bundle agent (no machine: `house-lite`), with the real
 * `agentdesk sync` (cli-harness.ts) against the real local service: knowledge/ syncs both ways,
 * work/ is outside that agent's layout and said so, --once exits 0, and while watching the agent's
 * new knowledge arrives within 5 s.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useCliWorld } from './cli-harness';

const w = useCliWorld();
const read = (path: string) => readFile(join(w.folder, path), 'utf8').catch(() => undefined);

async function bundleText(path: string): Promise<string | undefined> {
  const bundle = await w.api.getBundle(w.agentId);
  if (!bundle.ok) throw new Error(bundle.error.message);
  const file = bundle.value.files.find((f) => f.path === path);
  return file ? Buffer.from(file.contentBase64, 'base64').toString() : undefined;
}

/** Runs `test` with the agent on house-lite (a bundle agent), then gives it its machine engine back. */
async function asBundleAgent(test: () => Promise<void>) {
  const before = await w.api.getAgentConfig(w.agentId, { fields: ['engine'] });
  if (!before.ok) throw new Error(before.error.message);
  const switched = await w.api.updateAgentConfig(w.agentId, { engine: 'house-lite' });
  if (!switched.ok) throw new Error(switched.error.message);
  try {
    await test();
  } finally {
    await w.api.updateAgentConfig(w.agentId, { engine: before.value.engine });
  }
}

describe('agentdesk sync with a bundle agent', () => {
  it(
    'knowledge/ syncs both ways, work/ is outside the layout, and watching brings new knowledge',
    () =>
      asBundleAgent(async () => {
        await w.writeLocal('knowledge/facts.md', 'The sky is blue.');
        await w.writeLocal('work/notes.md', 'a machine agent’s folder');
        const first = await w.syncOnce();
        expect(first.err).toBe('');
        expect(first.code).toBe(0);
        expect(first.out).toMatch(/\(bundle agent\)/);
        expect(first.out).toMatch(/Not synced: work\/notes\.md \(outside the layout/);
        expect(await bundleText('knowledge/facts.md')).toBe('The sky is blue.');

        await writeFile(join(w.folder, 'knowledge/facts.md'), 'The sky is blue; the sea too.');
        const patched = await w.api.updateAgentConfig(w.agentId, { prompt: 'You know facts.' });
        expect(patched.ok).toBe(true);
        const second = await w.syncOnce();
        expect(second.code, second.out + second.err).toBe(0);
        expect(await bundleText('knowledge/facts.md')).toBe('The sky is blue; the sea too.');
        expect(await read('instructions.md')).toBe('You know facts.');

        const watcher = w.startCli([w.folder, '--server', w.service.url, '--interval', '30']);
        try {
          await watcher.waitFor('Watching for changes');
          const bundle = await w.api.getBundle(w.agentId);
          if (!bundle.ok) throw new Error(bundle.error.message);
          const added = {
            path: 'knowledge/new.md',
            contentBase64: Buffer.from('Learned while you watched.').toString('base64'),
          };
          const posted = await w.api.applyBundle(w.agentId, {
            ...bundle.value,
            files: [...bundle.value.files, added],
          });
          expect(posted.ok).toBe(true);
          const wrote = Date.now();
          await w.until(
            async () =>
              (await read('knowledge/new.md')) === 'Learned while you watched.' ? true : undefined,
            5000,
          );
          expect(Date.now() - wrote).toBeLessThan(5000);
        } finally {
          watcher.child.kill('SIGINT');
        }
        const stopped = await watcher.finished;
        expect(stopped.code).toBe(0);
        expect(stopped.err).toBe('');
      }),
    90_000,
  );
});
