import type { McpServer } from '@agentclientprotocol/sdk/unstable';
import type { ModelMessage } from 'ai';
import { sessionFiles } from '../agent-kit/session-files';
import type { Handoff } from './handoff';
import type { McpConnection } from './tools/mcp-tools';

/** Hidden folder of the workspace where the model agent keeps its sessions when the service gives no state folder. */
export const MODEL_AGENT_DIR = '.agentdesk-model-agent';

/** What the model agent remembers of one session (one conversation), saved after every turn. */
export interface ModelSession {
  id: string;
  cwd: string;
  /** The model chosen (a `modelChoices` id), or null for the first offered. */
  model: string | null;
  /** The conversation as the AI SDK's messages: text, tool calls and their results. */
  messages: ModelMessage[];
  /** Tools the person chose "always allow" for, in this session. */
  alwaysAllowed: string[];
  /** The model has written the conversation's title. */
  titled: boolean;
  /** Session totals, for usage reports. */
  inputTokens: number;
  outputTokens: number;
  /** USD, counted only for turns whose model has a known price; null while none has. */
  cost: number | null;
}

/** What lives only as long as the process: the latest providers handed over, MCP servers, the running turn. */
export interface LiveSession {
  saved: ModelSession;
  handoff: Handoff;
  mcpServers: McpServer[];
  mcp: McpConnection | null;
  running: AbortController | null;
}

export function newSession(id: string, cwd: string, model: string | null): ModelSession {
  return {
    id,
    cwd,
    model,
    messages: [],
    alwaysAllowed: [],
    titled: false,
    inputTokens: 0,
    outputTokens: 0,
    cost: null,
  };
}

const files = sessionFiles<ModelSession>({ stateFolder: 'model-sessions', workspaceFolder: MODEL_AGENT_DIR });
export const loadModelSession = files.load;
export const saveModelSession = files.save;
