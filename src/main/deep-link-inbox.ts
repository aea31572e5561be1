import type { ShellCommand } from '../shared/bridge';
import { parseDeepLink } from './deep-links';

export interface DeepLinkInbox {
  /** A link from the OS (open-url, a second launch's argv, this launch's argv). */
  receive(raw: string): void;
  /** A tray choice for the window. */
  send(command: ShellCommand): void;
  /** The page's listener; commands that came before it are delivered at once. */
  subscribe(listener: (command: ShellCommand) => void): () => void;
}

/**
 * Holds deep links until the window listens (a link can start the app), and ignores anything the strict
 * parser refuses, logging it shortened (a hostile link must not fill the log).
 */
export function createDeepLinkInbox(options: {
  log(line: string): void;
  /** Brings the window forward for a link that opens a place. */
  reveal(): void;
}): DeepLinkInbox {
  const pending: ShellCommand[] = [];
  const listeners = new Set<(command: ShellCommand) => void>();
  const send = (command: ShellCommand): void => {
    options.reveal();
    // Only the latest waits for the page: a burst of clicks before it listens opens the last place.
    if (listeners.size === 0) pending.splice(0, pending.length, command);
    for (const listener of listeners) listener(command);
  };
  return {
    send,
    receive(raw) {
      const place = parseDeepLink(raw);
      if (!place) {
        options.log(
          `Ignored a link that is not an AgentDesk place: ${JSON.stringify(String(raw).slice(0, 120))}`,
        );
        return;
      }
      send({ type: 'open', place });
    },
    subscribe(listener) {
      listeners.add(listener);
      for (const command of pending.splice(0)) listener(command);
      return () => listeners.delete(listener);
    },
  };
}
