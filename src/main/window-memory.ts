import { readFileSync, writeFileSync } from 'node:fs';
import type { BrowserWindow, Screen } from 'electron';
import { restoreWindowState, type WindowState } from './window-state';

type Display = { workArea: { x: number; y: number; width: number; height: number } };

/** Where the window opens this time, from `window-state.json` and the displays connected now. */
export function loadWindowState(
  filePath: string,
  screen: Pick<Screen, 'getAllDisplays' | 'getPrimaryDisplay'>,
): WindowState {
  let saved: unknown;
  try {
    saved = JSON.parse(readFileSync(filePath, 'utf8'));
  } catch {
    saved = undefined;
  }
  const displays = screen.getAllDisplays().map((d: Display) => d.workArea);
  return restoreWindowState(saved, displays, screen.getPrimaryDisplay().workArea);
}

/**
 * Remembers size, position and maximised state as the window changes (a moment after the last move,
 * and when it closes). Bounds of a maximised window are its normal bounds, so un-maximising works.
 */
export function rememberWindowState(
  window: Pick<BrowserWindow, 'on' | 'getNormalBounds' | 'isMaximized' | 'isDestroyed'>,
  filePath: string,
  delayMs = 500,
): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const save = (): void => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (window.isDestroyed()) return;
    const state: WindowState = { bounds: window.getNormalBounds(), maximized: window.isMaximized() };
    try {
      writeFileSync(filePath, `${JSON.stringify(state)}\n`, { mode: 0o600 });
    } catch {
      // Not remembering the window's place is no reason to fail.
    }
  };
  const later = (): void => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(save, delayMs);
  };
  for (const event of ['resize', 'move'] as const) window.on(event as 'resize', later);
  for (const event of ['maximize', 'unmaximize', 'close'] as const) window.on(event as 'close', save);
}
