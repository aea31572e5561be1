import { describe, expect, it } from 'vitest';
import { chooseSyncRoot, type SyncRootContext } from '../../../../src/core/host/sync/sync-root-choice';

const context: SyncRootContext = {
  defaultRoot: '/home/ana/AgentDesk/Helper',
  home: '/home/ana',
  dataDir: '/home/ana/.config/AgentDesk',
  otherRoots: [{ root: '/home/ana/AgentDesk/Writer', agentName: 'Writer' }],
};

describe('choosing a sync folder', () => {
  it('takes the default when nothing was typed', () => {
    expect(chooseSyncRoot(undefined, context)).toEqual({ ok: true, root: '/home/ana/AgentDesk/Helper' });
    expect(chooseSyncRoot('   ', context)).toEqual({ ok: true, root: '/home/ana/AgentDesk/Helper' });
  });

  it('takes a full path, tidied, and ~ for the home folder', () => {
    expect(chooseSyncRoot(' /srv/agents/helper/ ', context)).toEqual({
      ok: true,
      root: '/srv/agents/helper',
    });
    expect(chooseSyncRoot('/srv/agents/x/../helper', context)).toEqual({
      ok: true,
      root: '/srv/agents/helper',
    });
    expect(chooseSyncRoot('~/Documents/Helper', context)).toEqual({
      ok: true,
      root: '/home/ana/Documents/Helper',
    });
  });

  it('asks for a full path instead of guessing where a relative one points', () => {
    const choice = chooseSyncRoot('Documents/Helper', context);
    expect(choice).toEqual({
      ok: false,
      message: "Type the folder's full path, for example /home/ana/AgentDesk/Helper.",
    });
  });

  it('refuses folders whose sync would sweep up far more than the agent', () => {
    expect(chooseSyncRoot('/', context)).toMatchObject({
      ok: false,
      message: expect.stringContaining('disk'),
    });
    expect(chooseSyncRoot('~', context)).toMatchObject({
      ok: false,
      message: expect.stringContaining('home folder'),
    });
    expect(chooseSyncRoot('/home/ana/.config', context)).toMatchObject({
      ok: false,
      message: expect.stringContaining("AgentDesk's own data"),
    });
    expect(chooseSyncRoot('/home/ana/.config/AgentDesk/sync', context)).toMatchObject({ ok: false });
  });

  it("refuses another agent's folder, a folder inside it, and a folder around it", () => {
    for (const path of [
      '/home/ana/AgentDesk/Writer',
      '/home/ana/AgentDesk/Writer/work',
      '/home/ana/AgentDesk',
    ]) {
      expect(chooseSyncRoot(path, context)).toMatchObject({
        ok: false,
        message: expect.stringContaining('overlaps the sync folder of Writer'),
      });
    }
    // A sibling whose name merely starts the same is its own folder.
    expect(chooseSyncRoot('/home/ana/AgentDesk/Writer2', context)).toMatchObject({ ok: true });
  });

  it('refuses names no disk takes', () => {
    expect(chooseSyncRoot('/tmp/a\0b', context)).toMatchObject({ ok: false });
    expect(chooseSyncRoot(`/tmp/${'a'.repeat(5000)}`, context)).toMatchObject({ ok: false });
  });
});
