import { z } from 'zod';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** What is remembered of the main window between launches. */
export interface WindowState {
  bounds: Rect;
  maximized: boolean;
}

/** A connected display's usable area (Electron's `Display.workArea`). */
export type DisplayArea = Rect;

export const DEFAULT_SIZE = { width: 1200, height: 800 };
export const MIN_SIZE = { width: 720, height: 480 };
// At least this much of the title bar must be on a display for the window to be reachable.
const GRIP = 64;

const Size = z.number().finite().int();
/** The file's shape; anything else is treated as "nothing remembered". */
export const WindowStateFile = z.object({
  bounds: z.object({ x: Size, y: Size, width: Size.positive(), height: Size.positive() }),
  maximized: z.boolean(),
});

/**
 * Where the window opens, given what was remembered and the displays connected now. A window whose
 * title bar is on no display (a monitor was unplugged, a resolution changed) moves onto the primary
 * display, shrunk to fit; without a remembered state it opens centred there at the default size.
 */
export function restoreWindowState(
  saved: unknown,
  displays: readonly DisplayArea[],
  primary: DisplayArea,
): WindowState {
  const parsed = WindowStateFile.safeParse(saved);
  if (!parsed.success) return { bounds: centred(DEFAULT_SIZE, primary), maximized: false };
  const { bounds, maximized } = parsed.data;
  const home = displays.find((display) => titleBarOn(bounds, display));
  if (home) return { bounds: fitInside(bounds, home), maximized };
  return { bounds: centred(bounds, primary), maximized };
}

function titleBarOn(bounds: Rect, display: DisplayArea): boolean {
  const overlapX =
    Math.min(bounds.x + bounds.width, display.x + display.width) - Math.max(bounds.x, display.x);
  const titleY = bounds.y;
  return overlapX >= GRIP && titleY >= display.y && titleY < display.y + display.height - GRIP / 2;
}

/** Shrinks to the display if larger (never below the minimum) and keeps the position. */
function fitInside(bounds: Rect, display: DisplayArea): Rect {
  return {
    ...bounds,
    width: clamp(bounds.width, MIN_SIZE.width, Math.max(MIN_SIZE.width, display.width)),
    height: clamp(bounds.height, MIN_SIZE.height, Math.max(MIN_SIZE.height, display.height)),
  };
}

function centred(size: { width: number; height: number }, display: DisplayArea): Rect {
  const width = clamp(size.width, MIN_SIZE.width, Math.max(MIN_SIZE.width, display.width));
  const height = clamp(size.height, MIN_SIZE.height, Math.max(MIN_SIZE.height, display.height));
  return {
    x: display.x + Math.round((display.width - width) / 2),
    y: display.y + Math.round((display.height - height) / 2),
    width,
    height,
  };
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), max);
}
