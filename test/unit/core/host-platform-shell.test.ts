import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { UpdateState } from '../../../src/shared/bridge';
import { createActivityTracker } from '../../../src/core/host/platform/activity';
import { createPlatformArea, type PlatformOs } from '../../../src/core/host/platform/platform';
import type { UpdateSource } from '../../../src/core/host/platform/shell-hooks';

// The platform area over real files in a temporary data folder; the update source is a fake because
// electron-updater needs an installed Electron app, which cannot run here.
let dataDir: string;
const browserOs: PlatformOs = {
  platform: { os: 'linux', shell: 'browser', modifierKey: 'Ctrl' },
  notify: () => {},
  openExternal: () => {},
};
const idle = async () => ({ turnsRunning: 0, syncWriting: false });

function fakeUpdates(state: UpdateState) {
  const installs: number[] = [];
  const source: UpdateSource = {
    current: () => state,
    subscribe: () => () => {},
    install: () => void installs.push(Date.now()),
  };
  return { source, installs };
}

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'agentdesk-platform-'));
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

describe('platform area: shell habits', () => {
  it('gives copyable deep links and refuses missing ids', async () => {
    const area = createPlatformArea(browserOs, { dataDir, busy: idle });
    expect(await area.deepLinkFor({ agentId: 'a1' })).toEqual({ ok: true, value: 'agentdesk://agent/a1' });
    expect(await area.deepLinkFor({ agentId: 'a1', sessionId: 's/2' })).toEqual({
      ok: true,
      value: 'agentdesk://agent/a1/conversation/s%2F2',
    });
    const bad = await area.deepLinkFor({ agentId: '' });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
  });

  it('says plainly what browser mode lacks', async () => {
    const area = createPlatformArea(browserOs, { dataDir, busy: idle });
    const info = await area.getShellInfo();
    expect(info).toMatchObject({ ok: true, value: { tray: false, updates: false, logFile: null } });
    expect(info.ok && info.value.limits).toContain(
      'no tray icon, global shortcut, open at login or automatic updates',
    );
    expect(await area.restartToUpdate()).toMatchObject({ ok: false, error: { code: 'not_available' } });
    expect(await area.showLogs()).toMatchObject({ ok: false, error: { code: 'not_available' } });
    expect(await area.getUpdateState()).toEqual({ ok: true, value: { phase: 'idle' } });
  });

  it('closes the desktop quick chat window (opening a checked place), and says browser mode has none', async () => {
    const browser = createPlatformArea(browserOs, { dataDir, busy: idle });
    expect(await browser.closeQuick()).toMatchObject({ ok: false, error: { code: 'not_available' } });
    const closed: unknown[] = [];
    const desktop = createPlatformArea(
      { ...browserOs, shell: { closeQuick: (open) => void closed.push(open) } },
      { dataDir, busy: idle },
    );
    expect(await desktop.closeQuick()).toEqual({ ok: true, value: undefined });
    // The page's socket carries "no place" as null.
    expect(await desktop.closeQuick(null as never)).toEqual({ ok: true, value: undefined });
    expect(await desktop.closeQuick({ agentId: 'a1', sessionId: 's2' })).toEqual({
      ok: true,
      value: undefined,
    });
    expect(await desktop.closeQuick({ agentId: 'a1', sessionId: '' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_argument' },
    });
    expect(closed).toEqual([undefined, undefined, { agentId: 'a1', sessionId: 's2' }]);
  });

  it('restarts to update only with an update ready and nothing running', async () => {
    const ready = fakeUpdates({ phase: 'ready', version: '9.9.9' });
    let busy = { turnsRunning: 1, syncWriting: false };
    const area = createPlatformArea(
      { ...browserOs, shell: { updates: ready.source } },
      { dataDir, busy: async () => busy },
    );
    expect(await area.restartToUpdate()).toMatchObject({ ok: false, error: { code: 'busy' } });
    busy = { turnsRunning: 0, syncWriting: true };
    expect(await area.restartToUpdate()).toMatchObject({ ok: false, error: { code: 'busy' } });
    expect(ready.installs).toHaveLength(0);
    busy = { turnsRunning: 0, syncWriting: false };
    expect(await area.restartToUpdate()).toEqual({ ok: true, value: undefined });
    expect(ready.installs).toHaveLength(1);
  });

  it('remembers the last agent, conversation and sidebar width in a private file', async () => {
    const area = createPlatformArea(browserOs, { dataDir, busy: idle });
    expect(await area.getUiState()).toEqual({
      ok: true,
      value: { lastAgentId: null, lastSessionId: null, sidebarWidth: null, sidebarCollapsed: false },
    });
    await area.saveUiState({ lastAgentId: 'a1', lastSessionId: 's1' });
    await area.saveUiState({ sidebarWidth: 300 });
    const again = createPlatformArea(browserOs, { dataDir, busy: idle });
    expect(await again.getUiState()).toEqual({
      ok: true,
      value: { lastAgentId: 'a1', lastSessionId: 's1', sidebarWidth: 300, sidebarCollapsed: false },
    });
    expect((await stat(join(dataDir, 'ui-state.json'))).mode & 0o777).toBe(0o600);
    const refused = await again.saveUiState({ sidebarWidth: 'wide' } as never);
    expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_argument' } });
    expect(await again.saveUiState({ evil: 1 } as never)).toMatchObject({ ok: false });
    expect(JSON.parse(await readFile(join(dataDir, 'ui-state.json'), 'utf8'))).toMatchObject({
      sidebarWidth: 300,
    });
    // The folded sidebar is kept beside its width.
    await again.saveUiState({ sidebarCollapsed: true });
    const third = createPlatformArea(browserOs, { dataDir, busy: idle });
    expect(await third.getUiState()).toMatchObject({ value: { sidebarWidth: 300, sidebarCollapsed: true } });
  });

  it('reads a broken ui-state file as nothing remembered, field by field', async () => {
    await writeFile(join(dataDir, 'ui-state.json'), '{"lastAgentId": 5, "sidebarWidth": 280}');
    const area = createPlatformArea(browserOs, { dataDir, busy: idle });
    expect(await area.getUiState()).toEqual({
      ok: true,
      value: { lastAgentId: null, lastSessionId: null, sidebarWidth: 280, sidebarCollapsed: false },
    });
  });
});

describe('activity tracker', () => {
  it('counts running turns and waiting permission questions per conversation', () => {
    const activity = createActivityTracker();
    activity.observe('s1', { event: 'started', data: { turnId: 't1' } } as never);
    activity.observe('s1', {
      event: 'permission',
      data: { id: 'p1', title: 'Write?', options: [] },
    });
    activity.observe('s2', { event: 'started', data: { turnId: 't2' } } as never);
    expect(activity.snapshot()).toEqual({ turnsRunning: 2, conversationsWaiting: 1 });
    activity.observe('s1', { event: 'permission-resolved', data: { id: 'p1' } });
    activity.observe('s2', { event: 'done', data: { turnId: 't2' } });
    expect(activity.snapshot()).toEqual({ turnsRunning: 1, conversationsWaiting: 0 });
  });
});
