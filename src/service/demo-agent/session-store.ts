import type { ChatMessage } from '../../shared/api';
import { sessionFiles } from '../agent-kit/session-files';

/** Hidden folder in the workspace where the demo agent keeps its memory. */
export const DEMO_STATE_DIR = '.agentdesk-demo';

/** A message as the demo agent keeps it in its own session files (`text`, not `content`: its format on disk). */
export type DemoMessage = Pick<ChatMessage, 'role'> & { text: string };

/** Everything the demo agent remembers about one session (one conversation). */
export interface DemoSession {
  id: string;
  cwd: string;
  model: string;
  messages: DemoMessage[];
  /** The person chose "always allow" for writes in this session. */
  allowWrites: boolean;
  /** Session token totals, for usage reports. */
  inputTokens: number;
  outputTokens: number;
}

const files = sessionFiles<DemoSession>({ stateFolder: 'sessions', workspaceFolder: DEMO_STATE_DIR });

/** Reads a saved session, or null when there is none. */
export const loadSession = files.load;

/** Saves a session; write-then-rename, so the file holds either the old memory or the new one. */
export const saveSession = files.save;
