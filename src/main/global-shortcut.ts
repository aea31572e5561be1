import type { GlobalShortcut } from 'electron';

export interface ShortcutBinding {
  /** Registers `accelerator` (unregistering the one before); null turns it off. Answers a problem, or ''. */
  apply(accelerator: string | null): string;
}

/**
 * One global shortcut (showing or hiding the window; opening the quick chat), changed or turned off from
 * settings.
 */
export function createShortcutBinding(
  globalShortcut: Pick<GlobalShortcut, 'register' | 'unregister'>,
  run: () => void,
  log: (line: string) => void,
): ShortcutBinding {
  let current: string | null = null;
  return {
    apply(accelerator) {
      if (accelerator === current) return '';
      if (current) globalShortcut.unregister(current);
      current = null;
      if (!accelerator) return '';
      let registered: boolean;
      try {
        registered = globalShortcut.register(accelerator, run);
      } catch {
        registered = false;
      }
      if (!registered) {
        // Another app holds it, or the system refuses it: the app still works without it.
        const problem = `The shortcut ${accelerator} is taken by another app or the system.`;
        log(problem);
        return problem;
      }
      current = accelerator;
      return '';
    },
  };
}
