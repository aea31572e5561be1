import type { DeepLinkPlace } from '../../../shared/bridge';
import { desk } from '../../desk';

/**
 * Leaves the quick chat. The desktop app closes its window (and shows `open` in the main window). Browser
 * mode has no such window, so the host answers `not_available` and this tab goes to the main page instead,
 * opening `open` there (saved as the window's last place, which the main page reopens at start).
 */
export async function leaveQuick(open?: DeepLinkPlace): Promise<void> {
  const closed = await desk().closeQuick(open);
  if (closed.ok || closed.error.code !== 'not_available') return;
  if (open) await desk().saveUiState({ lastAgentId: open.agentId, lastSessionId: open.sessionId ?? null });
  // Without a fragment this is a full load, so the main page starts fresh (main.tsx picks it).
  window.location.replace(`${window.location.pathname}${window.location.search}`);
}
