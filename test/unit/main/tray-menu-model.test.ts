import { describe, expect, it } from 'vitest';
import { buildTrayModel, type TrayInput, type TrayItem } from '../../../src/main/tray-menu-model';

const base: TrayInput = {
  agents: [
    { id: 'a1', name: 'Ada' },
    { id: 'a2', name: 'Brian' },
  ],
  sync: { folders: 1, syncing: 0, needsAttention: 0, paused: false },
  conversationsWaiting: 0,
  windowVisible: true,
};
const labels = (items: TrayItem[]) => items.map((item) => ('label' in item ? item.label : '-'));
const find = (items: TrayItem[], label: string) =>
  items.find((item) => 'label' in item && item.label === label);

describe('tray menu model', () => {
  it('lists the agents, new conversation, the sync state, pause sync and quit', () => {
    const model = buildTrayModel(base);
    expect(labels(model.items)).toEqual([
      'Hide AgentDesk',
      '-',
      'Agents',
      'New conversation',
      '-',
      'Sync: up to date (1 folder)',
      'Pause sync',
      '-',
      'Quit AgentDesk',
    ]);
    const agents = find(model.items, 'Agents');
    expect(agents).toMatchObject({
      kind: 'submenu',
      items: [
        { label: 'Ada', action: { type: 'open-agent', agentId: 'a1' } },
        { label: 'Brian', action: { type: 'open-agent', agentId: 'a2' } },
      ],
    });
    expect(model.badge).toBe('');
    expect(model.tooltip).toBe('AgentDesk');
  });

  it('badges a sync or a conversation that needs attention', () => {
    const model = buildTrayModel({
      ...base,
      sync: { folders: 2, syncing: 0, needsAttention: 1, paused: false },
      conversationsWaiting: 2,
    });
    expect(model.badge).toBe('3');
    expect(model.tooltip).toBe('AgentDesk: 3 need attention');
    expect(labels(model.items)).toContain('Sync: 1 folder needs attention');
    expect(labels(model.items)).toContain('2 conversations waiting for you');
  });

  it('offers resume when paused, and nothing to pause without folders', () => {
    const paused = buildTrayModel({ ...base, sync: { ...base.sync, paused: true } });
    expect(find(paused.items, 'Resume sync')).toMatchObject({
      action: { type: 'resume-sync' },
      enabled: true,
    });
    const none = buildTrayModel({
      ...base,
      sync: { folders: 0, syncing: 0, needsAttention: 0, paused: false },
    });
    expect(find(none.items, 'Pause sync')).toMatchObject({ enabled: false });
    expect(labels(none.items)).toContain('Sync: no folders');
  });

  it('says when there are no agents, and caps a long list', () => {
    const empty = buildTrayModel({ ...base, agents: [] });
    expect(find(empty.items, 'Agents')).toMatchObject({ items: [{ kind: 'label', label: 'No agents yet' }] });
    expect(find(empty.items, 'New conversation')).toMatchObject({ enabled: false });
    const many = buildTrayModel({
      ...base,
      agents: Array.from({ length: 14 }, (_, i) => ({ id: `a${i}`, name: `Agent ${i}` })),
      windowVisible: false,
    });
    const list = find(many.items, 'Agents') as { items: TrayItem[] };
    expect(list.items).toHaveLength(11);
    expect(labels(list.items).at(-1)).toBe('and 4 more');
    expect(labels(many.items)[0]).toBe('Show AgentDesk');
  });
});
