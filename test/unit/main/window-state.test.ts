import { describe, expect, it } from 'vitest';
import { DEFAULT_SIZE, MIN_SIZE, restoreWindowState } from '../../../src/main/window-state';

const laptop = { x: 0, y: 0, width: 1440, height: 900 };
const external = { x: 1440, y: 0, width: 2560, height: 1440 };

describe('window-state restore', () => {
  it('opens where it was, maximised or not, when that display is still connected', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1400, height: 1000 }, maximized: true };
    expect(restoreWindowState(saved, [laptop, external], laptop)).toEqual(saved);
  });

  it('moves onto the primary display when the external one was unplugged', () => {
    const saved = { bounds: { x: 1600, y: 100, width: 1200, height: 800 }, maximized: false };
    const restored = restoreWindowState(saved, [laptop], laptop);
    expect(restored.maximized).toBe(false);
    expect(restored.bounds).toEqual({ x: 120, y: 50, width: 1200, height: 800 });
  });

  it('shrinks a window larger than the display it moves to, never below the minimum', () => {
    const saved = { bounds: { x: 1500, y: 0, width: 2400, height: 1400 }, maximized: false };
    const small = { x: 0, y: 0, width: 1280, height: 720 };
    expect(restoreWindowState(saved, [small], small).bounds).toEqual({
      x: 0,
      y: 0,
      width: 1280,
      height: 720,
    });
    const tiny = { x: 0, y: 0, width: 640, height: 400 };
    const onTiny = restoreWindowState(saved, [tiny], tiny).bounds;
    expect(onTiny.width).toBe(MIN_SIZE.width);
    expect(onTiny.height).toBe(MIN_SIZE.height);
  });

  it('moves a window whose title bar is above or left of every display', () => {
    const above = { bounds: { x: 100, y: -500, width: 1000, height: 700 }, maximized: false };
    expect(restoreWindowState(above, [laptop], laptop).bounds.y).toBeGreaterThanOrEqual(0);
    // Only a sliver of the window is on screen: not enough to grab it.
    const sliver = { bounds: { x: -990, y: 100, width: 1000, height: 700 }, maximized: false };
    expect(restoreWindowState(sliver, [laptop], laptop).bounds.x).toBeGreaterThanOrEqual(0);
  });

  it('keeps a window on a display left of or above the primary one (negative coordinates)', () => {
    const left = { x: -1920, y: -200, width: 1920, height: 1080 };
    const saved = { bounds: { x: -1800, y: -100, width: 1000, height: 700 }, maximized: false };
    expect(restoreWindowState(saved, [laptop, left], laptop)).toEqual(saved);
  });

  it('opens centred at the default size when nothing usable was saved', () => {
    for (const saved of [
      undefined,
      null,
      'x',
      { bounds: { x: 0, y: 0, width: -5, height: 10 }, maximized: false },
    ]) {
      expect(restoreWindowState(saved, [laptop], laptop)).toEqual({
        bounds: { x: 120, y: 50, ...DEFAULT_SIZE },
        maximized: false,
      });
    }
  });
});
