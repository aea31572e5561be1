import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { localRulesStore, MAX_RULES_PER_AGENT } from '../../../../src/core/host/approval-rules/rules-file';

// The rules of a server without our extension, kept in a real file of a scratch data folder.
let dir: string;
let file: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'agentdesk-rules-'));
  file = join(dir, 'approval-rules.json');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const server = 'https://agents.example.test';

describe('localRulesStore', () => {
  it('keeps rules per server and agent, once each, in a file only this user reads; removes them', async () => {
    const store = localRulesStore(file);
    const made = await store.add(server, 'a1', { effect: 'allow', tool: 'edit', folder: 'kb' });
    expect(made).toMatchObject({ effect: 'allow', tool: 'edit', folder: 'kb' });
    expect(await store.add(server, 'a1', { effect: 'allow', tool: 'edit', folder: 'kb' })).toEqual(made);
    await store.add(server, 'a2', { effect: 'deny', tool: 'execute', folder: null });

    // A new store (the app started again) reads the same rules from disk.
    const again = localRulesStore(file);
    expect(await again.list(server, 'a1')).toEqual([made]);
    expect(await again.list('https://other.example.test', 'a1')).toEqual([]);
    expect((await stat(file)).mode & 0o777).toBe(0o600);

    expect(await again.remove(server, 'a1', made!.id)).toBe(true);
    expect(await again.remove(server, 'a1', made!.id)).toBe(false);
    expect(await localRulesStore(file).list(server, 'a1')).toEqual([]);
    expect(JSON.parse(await readFile(file, 'utf8'))[server].a2).toHaveLength(1);
  });

  it('a broken file reads as no rules, and past the limit nothing more is kept', async () => {
    await writeFile(file, '{not json');
    const store = localRulesStore(file);
    expect(await store.list(server, 'a1')).toEqual([]);
    for (let i = 0; i < MAX_RULES_PER_AGENT; i++)
      expect(await store.add(server, 'a1', { effect: 'deny', tool: `t${i}`, folder: null })).toBeDefined();
    expect(await store.add(server, 'a1', { effect: 'deny', tool: 'one more', folder: null })).toBeUndefined();
  });
});
