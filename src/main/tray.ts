import type { MenuItemConstructorOptions } from 'electron';
import type { DeskHost } from '../core/host';
import {
  buildTrayModel,
  type TrayAction,
  type TrayItem,
  type TrayModel,
  type TraySyncSummary,
} from './tray-menu-model';

/** The parts of Electron's Tray this uses (mocked in tests: Electron cannot run there). */
export interface TrayLike {
  setContextMenu(menu: unknown): void;
  setToolTip(text: string): void;
  setTitle?(title: string): void;
  on(event: 'click', listener: () => void): void;
  destroy(): void;
}

export interface AppTrayOptions {
  tray: TrayLike;
  buildMenu(template: MenuItemConstructorOptions[]): unknown;
  host: Pick<
    DeskHost,
    'listAgents' | 'listSyncFolders' | 'onSyncStatus' | 'pauseSync' | 'resumeSync' | 'activity'
  >;
  windowVisible(): boolean;
  run(action: Exclude<TrayAction, { type: 'pause-sync' } | { type: 'resume-sync' }>): void;
  /** Linux trays have no title; macOS shows the badge next to the icon. */
  platform: NodeJS.Platform;
}

export interface AppTray {
  refresh(): Promise<void>;
  destroy(): void;
}

/** The tray (menu bar) icon: its menu is rebuilt from the model when sync or activity changes. */
export function createAppTray(options: AppTrayOptions): AppTray {
  const { host, tray } = options;
  let agentIds: string[] = [];

  const pauseAll = async (pause: boolean): Promise<void> => {
    const folders = await host.listSyncFolders();
    if (!folders.ok) return;
    for (const folder of folders.value) {
      if (pause) await host.pauseSync(folder.agentId);
      else await host.resumeSync(folder.agentId);
    }
    await refresh();
  };

  const refresh = async (): Promise<void> => {
    const [agents, folders] = await Promise.all([host.listAgents(), host.listSyncFolders()]);
    const agentList = agents.ok ? agents.value.agents.map((a) => ({ id: a.id, name: a.name })) : [];
    agentIds = agentList.map((a) => a.id);
    const model = buildTrayModel({
      agents: agentList,
      sync: summarise(folders.ok ? folders.value.map((f) => f.status) : []),
      conversationsWaiting: host.activity().conversationsWaiting,
      windowVisible: options.windowVisible(),
    });
    show(model);
  };

  const show = (model: TrayModel): void => {
    tray.setContextMenu(options.buildMenu(toTemplate(model.items, perform)));
    tray.setToolTip(model.tooltip);
    if (options.platform === 'darwin') tray.setTitle?.(model.badge);
  };

  const perform = (action: TrayAction): void => {
    if (action.type === 'pause-sync') void pauseAll(true);
    else if (action.type === 'resume-sync') void pauseAll(false);
    else if (action.type !== 'open-agent' || agentIds.includes(action.agentId)) options.run(action);
  };

  const unsubscribe = host.onSyncStatus(() => void refresh());
  tray.on('click', () => options.run({ type: 'toggle-window' }));
  void refresh();
  return {
    refresh,
    destroy() {
      unsubscribe();
      tray.destroy();
    },
  };
}

/** Sync folders' states, as the tray summarises them. */
export function summarise(
  statuses: { state: string; conflicts: unknown[]; pendingDeletes?: unknown }[],
): TraySyncSummary {
  return {
    folders: statuses.length,
    syncing: statuses.filter((s) => s.state === 'syncing' || s.state === 'scanning').length,
    needsAttention: statuses.filter(
      (s) => s.state === 'error' || s.conflicts.length > 0 || !!s.pendingDeletes,
    ).length,
    paused: statuses.length > 0 && statuses.every((s) => s.state === 'paused'),
  };
}

/** The model as Electron menu items. */
export function toTemplate(
  items: TrayItem[],
  perform: (action: TrayAction) => void,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    switch (item.kind) {
      case 'separator':
        return { type: 'separator' };
      case 'label':
        return { label: item.label, enabled: false };
      case 'submenu':
        return { label: item.label, submenu: toTemplate(item.items, perform) };
      case 'action':
        return { label: item.label, enabled: item.enabled, click: () => perform(item.action) };
    }
  });
}
