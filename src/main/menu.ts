import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openHelp(): void;
  /** Opens the folder of the log file. */
  showLogs(): void;
}

/**
 * The application menu in each platform's convention: on macOS the app menu
 * (About, Services, Hide, Quit) and a Window menu; elsewhere Quit lives in File.
 * App shortcuts (new conversation, search...) belong to the renderer, so the
 * menu adds no accelerators beyond the standard roles'.
 */
export function buildMenuTemplate(
  platform: NodeJS.Platform,
  appName: string,
  actions: MenuActions,
  options: { devTools: boolean } = { devTools: false },
): MenuItemConstructorOptions[] {
  const mac = platform === 'darwin';
  const template: MenuItemConstructorOptions[] = [];
  if (mac) {
    template.push({
      label: appName,
      submenu: [
        { role: 'about' },
        { type: 'separator' },
        { role: 'services' },
        { type: 'separator' },
        { role: 'hide' },
        { role: 'hideOthers' },
        { role: 'unhide' },
        { type: 'separator' },
        { role: 'quit' },
      ],
    });
  }
  template.push({
    label: 'File',
    submenu: [mac ? { role: 'close' } : { role: 'quit' }],
  });
  template.push({ role: 'editMenu' });
  template.push({
    label: 'View',
    submenu: [
      ...(options.devTools
        ? ([
            { role: 'reload' },
            { role: 'toggleDevTools' },
            { type: 'separator' },
          ] as MenuItemConstructorOptions[])
        : []),
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      { type: 'separator' },
      { role: 'togglefullscreen' },
    ],
  });
  template.push({ role: 'windowMenu' });
  template.push({
    role: 'help',
    submenu: [
      { label: `${appName} Help`, click: () => actions.openHelp() },
      { label: 'Show Logs', click: () => actions.showLogs() },
    ],
  });
  return template;
}
