import { join } from 'node:path';
import type {
  DeepLinkPlace,
  NotificationInput,
  PlatformInfo,
  PlatformMethods,
  UiState,
} from '../../../shared/bridge';
import { checkBody, checkConversationIds, checkId, isHttpsUrl } from '../plumbing/argument-checks';
import { fail } from '../plumbing/call-results';
import { formatDeepLink } from './deep-link-format';
import type { ShellHooks } from './shell-hooks';
import { shellInfo } from './shell-info';
import { canInstallNow, initialUpdateState, type BusyWork } from './update-state';
import { readUiState, UiStatePatch, writeUiState } from './ui-state-file';

/** What the platform area needs of the OS; each program provides it. */
export interface PlatformOs {
  platform: PlatformInfo;
  notify(notification: NotificationInput): void | Promise<void>;
  /** Opens a link in the system browser (the host checks it first: https, or http to this computer). */
  openExternal(url: string): void | Promise<void>;
  /** The desktop shell's tray, updater, logs and deep links; absent in browser mode. */
  shell?: ShellHooks;
}

export interface PlatformAreaOptions {
  /** Where `ui-state.json` (last agent and conversation, sidebar width) is kept. */
  dataDir: string;
  /** What a restart would interrupt right now. */
  busy(): Promise<BusyWork>;
}

/** The platform area: notifications, links, which OS this is, the shell's habits and the window's memory. */
export function createPlatformArea(os: PlatformOs, options: PlatformAreaOptions): PlatformMethods {
  const shell = os.shell ?? {};
  const uiStateFile = join(options.dataDir, 'ui-state.json');
  let uiState: Promise<UiState> | undefined;
  let saving: Promise<unknown> = Promise.resolve();
  return {
    async notify(notification) {
      if (typeof notification?.title !== 'string')
        return fail('invalid_argument', 'A notification needs a title.');
      await os.notify({
        title: notification.title.slice(0, 200),
        ...(typeof notification.body === 'string' ? { body: notification.body.slice(0, 1000) } : {}),
      });
      return { ok: true, value: undefined };
    },

    async openExternal(url) {
      if (!isOpenableUrl(url))
        return fail('invalid_argument', 'Only https links, or http links to this computer, can be opened.');
      await os.openExternal(url);
      return { ok: true, value: undefined };
    },

    async getPlatform() {
      return { ok: true, value: os.platform };
    },

    async getShellInfo() {
      return { ok: true, value: shellInfo(shell) };
    },

    async deepLinkFor(place) {
      const problem = checkPlace(place);
      if (problem) return { ok: false, error: problem };
      return { ok: true, value: formatDeepLink(place) };
    },

    async getUpdateState() {
      return { ok: true, value: shell.updates?.current() ?? initialUpdateState };
    },

    async restartToUpdate() {
      if (!shell.updates)
        return fail('not_available', 'Updates come with the installed desktop app; browser mode has none.');
      const decision = canInstallNow(shell.updates.current(), await options.busy());
      if (!decision.install) return fail('busy', decision.reason);
      shell.updates.install();
      return { ok: true, value: undefined };
    },

    async showLogs() {
      if (!shell.showLogs)
        return fail('not_available', 'Browser mode writes its log to the terminal that started it.');
      try {
        await shell.showLogs();
        return { ok: true, value: undefined };
      } catch (error) {
        return fail('open_failed', `The log folder could not be opened (${(error as Error).message}).`);
      }
    },

    async getUiState() {
      return { ok: true, value: await (uiState ??= readUiState(uiStateFile)) };
    },

    async saveUiState(patch) {
      const checked = checkBody(UiStatePatch, patch);
      if (!checked.ok) return checked;
      const changes = Object.fromEntries(Object.entries(checked.value).filter(([, v]) => v !== undefined));
      const next: UiState = { ...(await (uiState ??= readUiState(uiStateFile))), ...changes };
      uiState = Promise.resolve(next);
      // Writes go one after another, so the file always holds the last change whole.
      const write = saving.then(() => writeUiState(uiStateFile, next));
      saving = write.catch(() => undefined);
      try {
        await write;
      } catch (error) {
        return fail('internal', `The window's state could not be saved (${(error as Error).message}).`);
      }
      return { ok: true, value: next };
    },

    async closeQuick(open) {
      if (!shell.closeQuick)
        return fail('not_available', 'Only the desktop app has a quick chat window to close.');
      // The page's socket carries a missing place as null.
      const problem = open == null ? undefined : checkPlace(open);
      if (problem) return { ok: false, error: problem };
      shell.closeQuick(open ?? undefined);
      return { ok: true, value: undefined };
    },

    onUpdateState(listener) {
      return shell.updates?.subscribe(listener) ?? (() => {});
    },

    onShellCommand(listener) {
      return shell.onShellCommand?.(listener) ?? (() => {});
    },
  };
}

/** An agent, or one of its conversations, as a deep link or the quick window names it. */
function checkPlace(place: DeepLinkPlace) {
  return place?.sessionId === undefined
    ? checkId(place?.agentId, 'agent')
    : checkConversationIds(place.agentId, place.sessionId);
}

/** https anywhere; plain http only to this computer (the local service's pages and signed file links). */
function isOpenableUrl(url: unknown): url is string {
  if (isHttpsUrl(url)) return true;
  try {
    const parsed = new URL(String(url));
    return parsed.protocol === 'http:' && ['127.0.0.1', 'localhost', '[::1]'].includes(parsed.hostname);
  } catch {
    return false;
  }
}
