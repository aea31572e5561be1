import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import type { McpServer } from './mcp-servers';
import type { ToolChannelName, ToolVetoes, Vetoes } from './service-tools';

export interface AgentChannelsState {
  workchat: boolean;
  web: boolean;
  msgapp1: boolean;
  msgapp2: boolean;
}

/** Everything of an agent's configuration but its identity (name and engine live in `agents`). */
export interface AgentSettings {
  /** null: the engine's default model. */
  model: string | null;
  prompt: string;
  promptMode: 'append' | 'replace';
  channels: AgentChannelsState;
  webSearch: boolean;
  starters: string[];
  msgapp2Page: boolean;
  vetoes: ToolVetoes;
  mcp: McpServer[];
}

export const DEFAULT_SETTINGS: AgentSettings = {
  model: null,
  prompt: '',
  promptMode: 'append',
  channels: { workchat: true, web: true, msgapp1: false, msgapp2: false },
  webSearch: false,
  starters: [],
  msgapp2Page: false,
  vetoes: { gs: {}, extensions: {}, canales: {} },
  mcp: [],
};

interface Row {
  model: string | null;
  prompt: string;
  prompt_mode: 'append' | 'replace';
  channels: string;
  web_search: number;
  starters: string;
  msgapp2_page: number;
  tools_gs: string;
  tools_extensions: string;
  tools_canales: string;
  mcp: string;
}

function parse<T>(text: string, fallback: T): T {
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

function fromRow(row: Row): AgentSettings {
  return {
    model: row.model,
    prompt: row.prompt,
    promptMode: row.prompt_mode,
    channels: { ...DEFAULT_SETTINGS.channels, ...parse<Partial<AgentChannelsState>>(row.channels, {}) },
    webSearch: row.web_search === 1,
    starters: parse<string[]>(row.starters, []),
    msgapp2Page: row.msgapp2_page === 1,
    vetoes: {
      gs: parse<Vetoes>(row.tools_gs, {}),
      extensions: parse<Vetoes>(row.tools_extensions, {}),
      canales: parse<Partial<Record<ToolChannelName, Vetoes>>>(row.tools_canales, {}),
    },
    mcp: parse<McpServer[]>(row.mcp, []),
  };
}

/** Agent settings in `agent_configs`, plus the two identity columns this area may change (name, engine). */
export function createAgentConfigStore(db: ServiceDatabase, clock: Clock) {
  const select = db.prepare('SELECT * FROM agent_configs WHERE agent_id = ?');
  const upsert = db.prepare(
    `INSERT INTO agent_configs (agent_id, model, prompt, prompt_mode, channels, web_search, starters, msgapp2_page,
       tools_gs, tools_extensions, tools_canales, mcp, updated_at)
     VALUES (@agent_id, @model, @prompt, @prompt_mode, @channels, @web_search, @starters, @msgapp2_page,
       @tools_gs, @tools_extensions, @tools_canales, @mcp, @updated_at)
     ON CONFLICT (agent_id) DO UPDATE SET model = excluded.model, prompt = excluded.prompt,
       prompt_mode = excluded.prompt_mode, channels = excluded.channels, web_search = excluded.web_search,
       starters = excluded.starters, msgapp2_page = excluded.msgapp2_page, tools_gs = excluded.tools_gs,
       tools_extensions = excluded.tools_extensions, tools_canales = excluded.tools_canales, mcp = excluded.mcp,
       updated_at = excluded.updated_at`,
  );
  // `agents` belongs to identity; name and engine are the agent configuration's to change (PATCH).
  const setIdentity = db.prepare('UPDATE agents SET name = ?, engine = ?, protocolo = ? WHERE id = ?');

  function read(agentId: string): AgentSettings {
    const row = select.get(agentId) as Row | undefined;
    return row ? fromRow(row) : structuredClone(DEFAULT_SETTINGS);
  }

  function write(agentId: string, s: AgentSettings): void {
    upsert.run({
      agent_id: agentId,
      model: s.model,
      prompt: s.prompt,
      prompt_mode: s.promptMode,
      channels: JSON.stringify(s.channels),
      web_search: s.webSearch ? 1 : 0,
      starters: JSON.stringify(s.starters),
      msgapp2_page: s.msgapp2Page ? 1 : 0,
      tools_gs: JSON.stringify(s.vetoes.gs),
      tools_extensions: JSON.stringify(s.vetoes.extensions),
      tools_canales: JSON.stringify(s.vetoes.canales),
      mcp: JSON.stringify(s.mcp),
      updated_at: clock.now(),
    });
  }

  return {
    read,
    write,
    /** Saves identity and settings in one transaction. */
    save: db.transaction(
      (
        agentId: string,
        identity: { name: string; engine: string; protocolo: string },
        settings: AgentSettings,
      ) => {
        setIdentity.run(identity.name, identity.engine, identity.protocolo, agentId);
        write(agentId, settings);
      },
    ) as (
      agentId: string,
      identity: { name: string; engine: string; protocolo: string },
      settings: AgentSettings,
    ) => void,
  };
}

export type AgentConfigStore = ReturnType<typeof createAgentConfigStore>;
