/**
 * The engine layer's contract: what the turns layer (routes, turn state
 * machine, SSE) codes against. Implementation: `createEngineHost` in
 * `./engine-host`, re-exported with these types from `./index`.
 *
 * Model in one paragraph: machine engines are ACP agent programs spoken to
 * over stdio. There is one agent process ("machine") per agent, with cwd set
 * to that agent's persistent workspace (`<dataDir>/agents/<agentId>/work`, the
 * API's `/data/work`). A machine is spawned on demand by the first turn that
 * needs it and stopped after an idle period. Each conversation is one ACP
 * session; the conversationId → ACP sessionId map is kept by the engine layer
 * (a small JSON per agent, outside the workspace) and a conversation is
 * resumed with `session/load` when the agent supports it. At most
 * `maxMachines` machines are awake at once; a turn that needs a machine beyond
 * the cap waits in a FIFO queue (that is the API's `queued` state / `enCola`).
 *
 * Stability: this file only grows (additive changes), so code written against
 * it keeps compiling.
 */

import type { Attachment, MessageText } from '../../shared/api';
import type { Handoff } from '../model-agent/handoff';

/** Engine names of the API. `house-lite` has no machine (routes answer 409 agente_no_acp). */
export const ENGINE_NAMES = ['house-lite', 'engine-b', 'engine-c', 'engine-d', 'engine-e'] as const;
export type EngineName = (typeof ENGINE_NAMES)[number];

/** Engines without a machine of their own. */
export const ENGINES_WITHOUT_MACHINE: readonly string[] = ['house-lite'];

/** The engine that runs the demo agent (offline, answers by rule): the default when no provider is found. */
export const DEMO_ENGINE = 'engine-b';
/** The places for the agent programs found on the PATH or chosen by the service's owner. */
export const PROGRAM_PLACES = ['engine-c', 'engine-d'] as const;
export type ProgramPlace = (typeof PROGRAM_PLACES)[number];
/** The engine that runs the service's model agent on the person's providers. */
export const MODEL_AGENT_ENGINE = 'engine-e';

/**
 * How to start one engine's ACP agent: `command[0]` is the program, the rest
 * its arguments. `env` is merged over the service's environment.
 * Service config shape: `engines: { [name]: EngineCommand }`. Machine engines
 * that are not configured run the built-in demo agent.
 */
export interface EngineCommand {
  command: string[];
  env?: Record<string, string>;
  /** Variables of the service's environment the agent must not inherit (the providers' keys). */
  unsetEnv?: string[];
  /** The known agent program it runs (agent-programs.ts), when it is one. */
  program?: string;
  /** What the service's owner called their own command. */
  name?: string;
}
export type EnginesConfig = Partial<Record<string, EngineCommand>>;

export interface EngineHostOptions {
  /** The service's data folder; workspaces live at `<dataDir>/agents/<agentId>/work`. */
  dataDir: string;
  /** Per-engine agent commands; see `EngineCommand`. */
  engines?: EnginesConfig;
  /** Cap on machines awake at once (`--max-machines`). Default 4. */
  maxMachines?: number;
  /** A machine with no running turn is stopped after this long. Default 10 minutes. */
  idleMs?: number;
  /** How long a cancelled prompt may take to wind down before the turn is closed anyway. Default 5 s. */
  cancelGraceMs?: number;
  /** Diagnostics (agent stderr, spawn/exit). Default: silent. */
  log?: (line: string) => void;
  /**
   * What the model agent (`MODEL_AGENT_ENGINE`) is handed for this agent's person: providers, keys and models
   * (model-agent/handoff.ts), asked afresh before every ACP request of its turns and for its models.
   */
  handoff?: (agentId: string) => Promise<Handoff>;
}

// ---------------------------------------------------------------------------
// Events a turn emits (ACP session updates mapped onto the API's events)
// ---------------------------------------------------------------------------

/** ACP tool kinds ('read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'). */
export type ToolKind = string;
export type ToolStatus = 'pending' | 'in_progress' | 'completed' | 'failed';

/** A tool call as the API shows it. Updates carry the merged, current state of the call. */
export interface EngineTool {
  id: string;
  title: string;
  kind: ToolKind;
  status: ToolStatus;
  /** First location of the call, relative to the workspace when inside it (API paths are relative to /data/work). */
  path?: string;
  /** Plain-text detail from the tool's content (for example the error of a failed call). */
  detalle?: string;
  /** On a permission request only: the change an edit asks to make (path relative like `path`). */
  diff?: { path?: string; oldText: string | null; newText: string };
  /** On a permission request only: the tool's raw input, as the agent sent it. */
  rawInput?: unknown;
}

export interface ModelOption {
  id: string;
  label: string;
}

export type EngineEvent =
  /** `agent_message_chunk`: a piece of the reply. */
  | { type: 'chunk'; text: string }
  /** `agent_thought_chunk`. */
  | { type: 'thought'; text: string }
  /** `tool_call` / `tool_call_update` (full merged state each time). */
  | ({ type: 'tool' } & EngineTool)
  /** The session's model selector (ACP config option with category `model`). Sent when the session opens and when it changes. */
  | { type: 'models'; options: ModelOption[]; current: string }
  /**
   * `usage_update` (used/size/cost) merged with the prompt's token usage
   * (input/output, session totals). Unknown token counts are 0; an unknown cost is left out, never 0 (a
   * made-up price). Sent once when a prompt ends, if the agent reported any usage.
   */
  | {
      type: 'usage';
      used: number;
      size: number;
      cost?: number;
      input: number;
      output: number;
      currency?: string;
    }
  /** What the agent accepts in a prompt (from ACP initialize). Sent once per turn, when it gets its machine. */
  | { type: 'caps'; image: boolean }
  /** `session_info_update` with a title: the agent named the conversation (the model agent does after its first reply). */
  | { type: 'title'; title: string };

// ---------------------------------------------------------------------------
// Permissions
// ---------------------------------------------------------------------------

export type PermissionOptionKind = 'allow_once' | 'allow_always' | 'reject_once' | 'reject_always';

/** `session/request_permission`, as the API's `permission` event needs it. */
export interface PermissionRequest {
  /** Unique per request (the API's permission `id`). */
  id: string;
  /** Human title, e.g. "Write notes/todo.md". */
  title: string;
  /** The tool call that asks. */
  tool: EngineTool;
  options: { optionId: string; name: string; kind: PermissionOptionKind }[];
}

/** `{ optionId }` picks one of `options`; `{ denied: true }` refuses (expiry, cancel, unknown option). */
export type PermissionAnswer = { optionId: string } | { denied: true };

/**
 * Answered by the turn layer (which owns the API route and the 10-minute
 * expiry). `signal` aborts when the request no longer matters (the turn was
 * cancelled, the machine stopped): the turn layer should then close its open
 * request; whatever it returns afterwards is ignored.
 */
export type RequestPermission = (req: PermissionRequest, signal: AbortSignal) => Promise<PermissionAnswer>;

// ---------------------------------------------------------------------------
// Turns
// ---------------------------------------------------------------------------

/** The API's McpServer (remote or local command); converted to ACP's shape by the engine. */
export type EngineMcpServer =
  | { name: string; type?: 'http' | 'sse'; url: string; headers?: Record<string, string> }
  | { name: string; command: string; args?: string[]; env?: Record<string, string> };

export interface RunTurnOptions {
  agentId: string;
  /** The agent's engine; must have a machine (see `EngineHost.hasMachine`). */
  engine: string;
  conversationId: string;
  /** The user's message text. */
  content: string;
  attachments?: Attachment[];
  /** Model id to use for this turn (from a `models` event); switched before prompting when it differs. */
  model?: string;
  /** Given to `session/new` / `session/load`. Changing them needs `restart` to reach an open session. */
  mcpServers?: EngineMcpServer[];
  /** Overrides the default workspace folder; only read when this turn spawns the machine. */
  workspaceDir?: string;
  /**
   * Messages of this conversation the agent never saw (a fork's carried-over history), oldest first:
   * given before the first prompt of a new session only; a session the agent already has keeps them.
   */
  history?: MessageText[];
  onEvent: (event: EngineEvent) => void;
  requestPermission: RequestPermission;
  /** Abort = cancel the turn (dequeued if still waiting, else ACP `session/cancel`). */
  signal?: AbortSignal;
}

/** ACP stop reasons plus 'error' (crash, agent error, spawn failure). */
export type TurnStopReason =
  'end_turn' | 'cancelled' | 'refusal' | 'max_tokens' | 'max_turn_requests' | 'error';

export type EngineErrorCode =
  | 'agent_crashed' // the process died mid-turn; the next turn respawns it
  | 'agent_error' // the agent answered the prompt with an error
  | 'spawn_failed' // the command could not start or failed ACP initialize/session setup
  | 'protocol_error' // an answer broke ACP (e.g. session/new without sessionId)
  | 'no_machine' // the engine has no machine (house-lite)
  | 'closed'; // the host is closing

export interface TurnResult {
  stopReason: TurnStopReason;
  /** A plain sentence, set when stopReason is 'error'. */
  error?: string;
  errorCode?: EngineErrorCode;
  /** Set when the turn was ended by `restart`/`stop`/`close` rather than by the agent or the caller (stopReason 'cancelled'). */
  interruptedBy?: 'restart' | 'stop' | 'close';
}

/** Returned synchronously by `startTurn`, so admission (queued or not) is race-free. */
export interface TurnHandle {
  /** True when the turn waits for a machine (the API's `queued`); false means `running`. */
  queued: boolean;
  /** Turns of this agent waiting for a machine right now, this one included (the API's `enCola`). */
  queueLength: number;
  /** Resolves when the turn gets its machine (at once when not queued), or when it ends without ever getting one. Never rejects. */
  running: Promise<void>;
  /** Resolves when the turn ends. Never rejects. */
  done: Promise<TurnResult>;
  /**
   * Injection: adds a user message to this turn while it still accepts input.
   * The agent receives it after its current prompt finishes, as a follow-up
   * prompt in the same turn, and its answer streams through the same
   * `onEvent`. Returns false once the turn is closing (its last prompt has
   * ended) or over: the caller then replaces the turn.
   */
  inject(content: string, attachments?: Attachment[]): boolean;
  /** Whether `inject` would be accepted now. */
  acceptsInput(): boolean;
}

export interface EngineHost {
  /** False for engines without a machine (`house-lite`): their conversation routes answer 409 agente_no_acp. */
  hasMachine(engine: string): boolean;
  /**
   * Whether the engine takes its model with each turn (the built-in model agent reads it from the handoff),
   * so a change of model needs no fresh machine.
   */
  takesModelPerTurn(engine: string): boolean;
  /** Admits a turn: runs it now, or queues it when the awake cap is reached. */
  startTurn(options: RunTurnOptions): TurnHandle;
  /** `startTurn(options).done`. */
  runTurn(options: RunTurnOptions): Promise<TurnResult>;
  /**
   * The agent's models. Wakes the machine if needed (a throwaway ACP session
   * reads the selector); cached per agent afterwards. Empty options when the
   * agent offers no model selector.
   */
  models(agentId: string, engine: string): Promise<{ options: ModelOption[]; current: string }>;
  /**
   * Stops the agent's machine (running turns end 'cancelled' with
   * interruptedBy 'restart') and spawns it again. The workspace is kept.
   */
  restart(agentId: string, engine: string): Promise<{ restarted: boolean; sandboxId: string }>;
  /** Stops the agent's machine if awake (running turns end 'cancelled', interruptedBy 'stop'). */
  stop(agentId: string): Promise<void>;
  /** Stops every awake machine of an engine (its program changed); the next turn starts the new one. */
  stopEngine(engine: string): Promise<void>;
  isAwake(agentId: string): boolean;
  /** Turns waiting for a machine: of one agent, or of all agents when omitted. */
  queuedCount(agentId?: string): number;
  /** Whether a new turn of this agent would be queued right now. */
  wouldQueue(agentId: string): boolean;
  /** Forgets a conversation's ACP session (e.g. when the conversation is deleted). */
  forgetConversation(agentId: string, conversationId: string): Promise<void>;
  /** Ends every turn (interruptedBy 'close'), stops every machine. */
  close(): Promise<void>;
}
