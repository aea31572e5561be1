import { describe, expect, it, vi } from 'vitest';
import { createDeepLinkInbox } from '../../../src/main/deep-link-inbox';
import { createAppTray } from '../../../src/main/tray';

// Electron's Tray and Menu are stand-ins (the Electron binary cannot run here): the tray records the
// template it is given, so the test can click its items as a person would.
type Item = { label?: string; enabled?: boolean; click?: () => void; submenu?: Item[] };

function fakeHost(states: string[]) {
  const folders = states.map((state, i) => ({
    agentId: `a${i}`,
    status: { state, conflicts: [] },
  }));
  return {
    listAgents: vi.fn(async () => ({
      ok: true,
      value: { agents: [{ id: 'a0', name: 'Ada' }], user: {} },
    })),
    listSyncFolders: vi.fn(async () => ({ ok: true, value: folders })),
    onSyncStatus: vi.fn(() => () => {}),
    pauseSync: vi.fn(async (agentId: string) => ({ ok: true, value: agentId })),
    resumeSync: vi.fn(async (agentId: string) => ({ ok: true, value: agentId })),
    activity: () => ({ turnsRunning: 0, conversationsWaiting: 1 }),
  };
}

async function openTray(states: string[]) {
  const host = fakeHost(states);
  const menus: Item[][] = [];
  const tray = {
    setContextMenu: vi.fn(),
    setToolTip: vi.fn(),
    setTitle: vi.fn(),
    on: vi.fn(),
    destroy: vi.fn(),
  };
  const run = vi.fn();
  const appTray = createAppTray({
    tray,
    buildMenu: (template) => (menus.push(template as Item[]), template),
    host: host as never,
    windowVisible: () => false,
    run,
    platform: 'darwin',
  });
  await vi.waitFor(() => expect(menus.length).toBeGreaterThan(0));
  const item = (label: string) => menus.at(-1)!.find((i) => i.label === label)!;
  return { host, tray, run, appTray, menus, item };
}

describe('tray', () => {
  it('shows the agents, the badge, and runs what is clicked', async () => {
    const { tray, run, item } = await openTray(['error']);
    expect(tray.setTitle).toHaveBeenLastCalledWith('2');
    expect(tray.setToolTip).toHaveBeenLastCalledWith('AgentDesk: 2 need attention');
    item('Agents').submenu![0]!.click!();
    expect(run).toHaveBeenCalledWith({ type: 'open-agent', agentId: 'a0' });
    item('New conversation').click!();
    item('Show AgentDesk').click!();
    item('Quit AgentDesk').click!();
    expect(run.mock.calls.map(([action]) => action.type)).toEqual([
      'open-agent',
      'new-conversation',
      'toggle-window',
      'quit',
    ]);
  });

  it('pauses every sync folder, then offers to resume', async () => {
    const { host, item } = await openTray(['idle', 'syncing']);
    item('Pause sync').click!();
    await vi.waitFor(() => expect(host.pauseSync.mock.calls.map(([id]) => id)).toEqual(['a0', 'a1']));
    const paused = await openTray(['paused', 'paused']);
    paused.item('Resume sync').click!();
    await vi.waitFor(() => expect(paused.host.resumeSync).toHaveBeenCalledTimes(2));
  });
});

describe('deep-link inbox', () => {
  it('keeps the latest link until the window listens, reveals it, and ignores the rest', () => {
    const lines: string[] = [];
    const reveal = vi.fn();
    const inbox = createDeepLinkInbox({ log: (l) => lines.push(l), reveal });
    inbox.receive('agentdesk://agent/first');
    inbox.receive('agentdesk://agent/second/conversation/s1');
    inbox.receive('agentdesk://agent/x?steal=1');
    const seen: unknown[] = [];
    inbox.subscribe((command) => seen.push(command));
    expect(seen).toEqual([{ type: 'open', place: { agentId: 'second', sessionId: 's1' } }]);
    expect(reveal).toHaveBeenCalledTimes(2);
    expect(lines).toEqual([expect.stringContaining('Ignored a link that is not an AgentDesk place')]);
    inbox.send({ type: 'new-conversation' });
    expect(seen.at(-1)).toEqual({ type: 'new-conversation' });
  });
});
