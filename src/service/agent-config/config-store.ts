import type { Clock } from '../clock';
import type { ServiceDatabase } from '../db/database';
import { prepare, type Executor } from '../db/statement';
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
  vetoes: { gs: {}, extensions: {}, channels: {} },
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
  tools_channels: string;
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
      channels: parse<Partial<Record<ToolChannelName, Vetoes>>>(row.tools_channels, {}),
    },
    mcp: parse<McpServer[]>(row.mcp, []),
  };
}

/** Agent settings in `agent_configs`, plus the two identity columns this area may change (name, engine). */
export function createAgentConfigStore(db: ServiceDatabase, clock: Clock) {
  const select = prepare(db, 'SELECT * FROM agent_configs WHERE agent_id = ?');
  const upsert = prepare(
    db,
    `INSERT INTO agent_configs (agent_id, model, prompt, prompt_mode, channels, web_search, starters, msgapp2_page,
       tools_gs, tools_extensions, tools_channels, mcp, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (agent_id) DO UPDATE SET model = excluded.model, prompt = excluded.prompt,
       prompt_mode = excluded.prompt_mode, channels = excluded.channels, web_search = excluded.web_search,
       starters = excluded.starters, msgapp2_page = excluded.msgapp2_page, tools_gs = excluded.tools_gs,
       tools_extensions = excluded.tools_extensions, tools_channels = excluded.tools_channels, mcp = excluded.mcp,
       updated_at = excluded.updated_at`,
  );
  // `agents` belongs to identity; name and engine are the agent configuration's to change (PATCH).
  const setIdentity = prepare(db, 'UPDATE agents SET name = ?, engine = ?, protocol = ? WHERE id = ?');

  async function read(agentId: string): Promise<AgentSettings> {
    const row = (await select.get(agentId)) as Row | undefined;
    return row ? fromRow(row) : structuredClone(DEFAULT_SETTINGS);
  }

  async function write(agentId: string, s: AgentSettings, on: Executor = db): Promise<void> {
    await upsert
      .on(on)
      .run(
        agentId,
        s.model,
        s.prompt,
        s.promptMode,
        JSON.stringify(s.channels),
        s.webSearch ? 1 : 0,
        JSON.stringify(s.starters),
        s.msgapp2Page ? 1 : 0,
        JSON.stringify(s.vetoes.gs),
        JSON.stringify(s.vetoes.extensions),
        JSON.stringify(s.vetoes.channels),
        JSON.stringify(s.mcp),
        clock.now(),
      );
  }

  return {
    read,
    write,
    /** Saves identity and settings in one transaction. */
    async save(
      agentId: string,
      identity: { name: string; engine: string; protocol: string },
      settings: AgentSettings,
    ): Promise<void> {
      await db.transaction().execute(async (trx) => {
        await setIdentity.on(trx).run(identity.name, identity.engine, identity.protocol, agentId);
        await write(agentId, settings, trx);
      });
    },
  };
}

export type AgentConfigStore = ReturnType<typeof createAgentConfigStore>;
