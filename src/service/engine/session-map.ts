import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ModelOption } from './types';
import { agentDir } from '../workspace/agent-folders';

/** What the engine layer remembers per agent and engine. */
interface EngineState {
  /** conversationId → ACP sessionId */
  sessions: Record<string, string>;
  /** Last model selector seen, so `models()` need not wake the machine. */
  models?: { options: ModelOption[]; current: string };
}
type AgentState = Record<string, EngineState>;

const FILE = 'acp-sessions.json';

/**
 * Persistent map conversation → ACP session, one small JSON per agent at
 * `<dataDir>/agents/<agentId>/acp-sessions.json` (outside the workspace, so the
 * agent cannot touch it). Kept per engine: after an engine switch the memory
 * stays with the old engine, as the API says.
 */
export class SessionMap {
  private readonly cache = new Map<string, Promise<AgentState>>();
  private readonly writes = new Map<string, Promise<void>>();

  constructor(private readonly dataDir: string) {}

  private load(agentId: string): Promise<AgentState> {
    let state = this.cache.get(agentId);
    if (!state) {
      state = readFile(join(agentDir(this.dataDir, agentId), FILE), 'utf8')
        .then((text) => JSON.parse(text) as AgentState)
        .catch(() => ({}));
      this.cache.set(agentId, state);
    }
    return state;
  }

  private async update(agentId: string, change: (state: AgentState) => void): Promise<void> {
    const state = await this.load(agentId);
    change(state);
    // Writes of one agent are chained; each writes the whole, current state (write-then-rename).
    const previous = this.writes.get(agentId) ?? Promise.resolve();
    const next = previous.then(async () => {
      const dir = agentDir(this.dataDir, agentId);
      await mkdir(dir, { recursive: true });
      const temp = join(dir, `${FILE}.tmp`);
      await writeFile(temp, JSON.stringify(state, null, 2));
      await rename(temp, join(dir, FILE));
    });
    this.writes.set(
      agentId,
      next.catch(() => undefined),
    );
    await next;
  }

  private static engine(state: AgentState, engine: string): EngineState {
    return (state[engine] ??= { sessions: {} });
  }

  async sessionOf(agentId: string, engine: string, conversationId: string): Promise<string | undefined> {
    return (await this.load(agentId))[engine]?.sessions[conversationId];
  }

  async setSession(
    agentId: string,
    engine: string,
    conversationId: string,
    sessionId: string,
  ): Promise<void> {
    await this.update(agentId, (state) => {
      SessionMap.engine(state, engine).sessions[conversationId] = sessionId;
    });
  }

  async forgetConversation(agentId: string, conversationId: string): Promise<void> {
    await this.update(agentId, (state) => {
      for (const engine of Object.values(state)) delete engine.sessions[conversationId];
    });
  }

  async modelsOf(agentId: string, engine: string): Promise<EngineState['models']> {
    return (await this.load(agentId))[engine]?.models;
  }

  async setModels(
    agentId: string,
    engine: string,
    models: { options: ModelOption[]; current: string },
  ): Promise<void> {
    const known = (await this.load(agentId))[engine]?.models;
    if (JSON.stringify(known) === JSON.stringify(models)) return;
    await this.update(agentId, (state) => {
      SessionMap.engine(state, engine).models = models;
    });
  }

  /** Waits for pending writes (used on close). */
  async flush(): Promise<void> {
    await Promise.all(this.writes.values());
  }
}
