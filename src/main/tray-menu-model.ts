/**
 * What the tray (menu bar on macOS) menu shows, as plain data: tray.ts turns it into an Electron menu.
 * Kept free of Electron so every state can be tested.
 */
export interface TrayAgent {
  id: string;
  name: string;
}

export interface TraySyncSummary {
  /** Folders being synced. */
  folders: number;
  /** Folders syncing right now. */
  syncing: number;
  /** Folders in error, with conflicts, or waiting for a deletion to be confirmed. */
  needsAttention: number;
  paused: boolean;
}

export interface TrayInput {
  agents: readonly TrayAgent[];
  sync: TraySyncSummary;
  /** Conversations waiting on the person (a permission question). */
  conversationsWaiting: number;
  windowVisible: boolean;
}

export type TrayAction =
  | { type: 'open-agent'; agentId: string }
  | { type: 'new-conversation' }
  | { type: 'toggle-window' }
  | { type: 'pause-sync' }
  | { type: 'resume-sync' }
  | { type: 'quit' };

export type TrayItem =
  | { kind: 'action'; label: string; action: TrayAction; enabled: boolean }
  | { kind: 'label'; label: string }
  | { kind: 'submenu'; label: string; items: TrayItem[] }
  | { kind: 'separator' };

export interface TrayModel {
  items: TrayItem[];
  /** Shown as the tray's title (macOS) and in its tooltip: a count of things needing attention, or ''. */
  badge: string;
  tooltip: string;
}

// A long agent list would push Quit off the screen; the rest are one click away in the window.
const MAX_AGENTS = 10;

export function buildTrayModel(input: TrayInput): TrayModel {
  const attention = input.sync.needsAttention + input.conversationsWaiting;
  const agents = input.agents.slice(0, MAX_AGENTS);
  const agentItems: TrayItem[] = agents.length
    ? agents.map((agent) => ({
        kind: 'action',
        label: agent.name,
        action: { type: 'open-agent', agentId: agent.id },
        enabled: true,
      }))
    : [{ kind: 'label', label: 'No agents yet' }];
  if (input.agents.length > agents.length)
    agentItems.push({ kind: 'label', label: `and ${input.agents.length - agents.length} more` });

  const items: TrayItem[] = [
    {
      kind: 'action',
      label: input.windowVisible ? 'Hide AgentDesk' : 'Show AgentDesk',
      action: { type: 'toggle-window' },
      enabled: true,
    },
    { kind: 'separator' },
    { kind: 'submenu', label: 'Agents', items: agentItems },
    {
      kind: 'action',
      label: 'New conversation',
      action: { type: 'new-conversation' },
      enabled: input.agents.length > 0,
    },
    { kind: 'separator' },
    { kind: 'label', label: syncLine(input.sync) },
    ...(input.conversationsWaiting > 0
      ? [{ kind: 'label' as const, label: waitingLine(input.conversationsWaiting) }]
      : []),
    input.sync.paused
      ? {
          kind: 'action',
          label: 'Resume sync',
          action: { type: 'resume-sync' },
          enabled: input.sync.folders > 0,
        }
      : {
          kind: 'action',
          label: 'Pause sync',
          action: { type: 'pause-sync' },
          enabled: input.sync.folders > 0,
        },
    { kind: 'separator' },
    { kind: 'action', label: 'Quit AgentDesk', action: { type: 'quit' }, enabled: true },
  ];
  const badge = attention > 0 ? String(Math.min(attention, 99)) : '';
  const tooltip =
    attention > 0 ? `AgentDesk: ${attention} need${attention === 1 ? 's' : ''} attention` : 'AgentDesk';
  return { items, badge, tooltip };
}

function syncLine(sync: TraySyncSummary): string {
  if (sync.folders === 0) return 'Sync: no folders';
  if (sync.paused) return 'Sync: paused';
  if (sync.needsAttention > 0)
    return `Sync: ${sync.needsAttention} folder${sync.needsAttention === 1 ? '' : 's'} need${sync.needsAttention === 1 ? 's' : ''} attention`;
  if (sync.syncing > 0) return `Sync: syncing ${sync.syncing} of ${sync.folders}`;
  return `Sync: up to date (${sync.folders} folder${sync.folders === 1 ? '' : 's'})`;
}

function waitingLine(count: number): string {
  return `${count} conversation${count === 1 ? '' : 's'} waiting for you`;
}
