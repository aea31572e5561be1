import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type AgentCapabilities,
  type ClientConnection,
  type ContentBlock,
  type McpServer,
  type PromptResponse,
  type SessionConfigOption,
} from '@agentclientprotocol/sdk/unstable';
import { requireSessionId, requireStopReason } from './agent-answers';
import type { OpenedSession, RequestMeta, SessionListener, StopCause } from './machine-types';
import type { EngineCommand } from './types';
import type { ModelSelector, SessionUsage } from './update-mapper';
import { readTextFile, writeTextFile } from './workspace-fs';

const withMeta = (meta: RequestMeta | undefined) => (meta ? { _meta: meta } : {});

/** An agent that does not finish ACP initialize in this time is given up on (real agents may load for a while). */
const START_TIMEOUT_MS = 60_000;

/**
 * The agent's environment: the service's, less what the command must not inherit (the providers' keys), with
 * AGENTDESK_AGENT_STATE, a private folder beside (not inside) the workspace, so an agent's own bookkeeping
 * never shows up in file listings or sync.
 */
function agentEnvironment(command: EngineCommand, stateDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, AGENTDESK_AGENT_STATE: stateDir, ...command.env };
  for (const name of command.unsetEnv ?? []) delete env[name];
  return env;
}

export interface MachineOptions {
  agentId: string;
  engine: string;
  command: EngineCommand;
  workspaceDir: string;
  sandboxId: string;
  log: (line: string) => void;
}

/**
 * One agent process and its ACP connection. The client side of ACP lives
 * here: initialize, sessions, prompts, cancel, model switching, permission
 * and file-system requests (confined to the workspace).
 */
export class AgentMachine {
  readonly sandboxId: string;
  agentCaps: AgentCapabilities = {};
  /** Set when the process has exited; `stopCause` tells whether we asked for it. */
  exitInfo: { code: number | null; signal: NodeJS.Signals | null } | null = null;
  stopCause: StopCause | null = null;
  /** Resolves once the process has exited (or never started). */
  readonly exited: Promise<void>;

  private child: ChildProcess | null = null;
  private connection: ClientConnection | null = null;
  private readonly listeners = new Map<string, SessionListener>();
  /** Per open session: the engine layer's bookkeeping (usage totals, model selector). */
  readonly sessionState = new Map<string, { usage: SessionUsage; selector: ModelSelector | null }>();
  private readonly openSessions = new Set<string>();
  private readonly stderrTail: string[] = [];
  private markExited!: () => void;

  constructor(private readonly options: MachineOptions) {
    this.sandboxId = options.sandboxId;
    this.exited = new Promise((resolve) => (this.markExited = resolve));
  }

  get alive(): boolean {
    return this.exitInfo === null;
  }

  /** A sentence about how the process ended, for turn errors. */
  describeExit(): string {
    const how = this.exitInfo?.signal
      ? `was killed by ${this.exitInfo.signal}`
      : `exited with code ${this.exitInfo?.code ?? 'unknown'}`;
    const tail = this.stderrTail.slice(-3).join(' | ');
    return `The agent process ${how}.${tail ? ` Last output: ${tail}` : ''}`;
  }

  /** Spawns the process and runs ACP `initialize`. Rejects when either fails. */
  async start(): Promise<void> {
    const { command, workspaceDir, log, agentId } = this.options;
    const [program, ...args] = command.command;
    if (!program) throw new Error('The engine command is empty.');
    await mkdir(workspaceDir, { recursive: true });

    const child = spawn(program, args, {
      cwd: workspaceDir,
      env: agentEnvironment(command, join(dirname(workspaceDir), 'agent-state')),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    this.child = child;
    const failedToSpawn = new Promise<never>((_, reject) => {
      child.once('error', (error) => {
        log(`[${agentId}] spawn error: ${error.message}`);
        reject(new Error(`The agent command could not start: ${error.message}`));
      });
    });
    failedToSpawn.catch(() => undefined);
    child.once('close', (code, signal) => {
      this.exitInfo = { code, signal };
      log(`[${agentId}] agent exited (code ${code}, signal ${signal})`);
      this.connection?.close(new Error(this.describeExit()));
      this.markExited();
    });
    child.once('error', () => {
      // 'close' may never come when spawning failed.
      if (child.pid === undefined && this.exitInfo === null) {
        this.exitInfo = { code: null, signal: null };
        this.markExited();
      }
    });
    child.stdin?.on('error', () => undefined); // EPIPE when the agent dies; 'close' reports it
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (text: string) => {
      for (const line of text.split('\n').filter(Boolean)) {
        this.stderrTail.push(line.slice(0, 300));
        if (this.stderrTail.length > 20) this.stderrTail.shift();
        log(`[${agentId}] ${line}`);
      }
    });

    const stream = ndJsonStream(
      Writable.toWeb(child.stdin!) as WritableStream<Uint8Array>,
      Readable.toWeb(child.stdout!) as ReadableStream<Uint8Array>,
    );
    this.connection = this.clientApp().connect(stream);

    const init = this.connection.agent.request(methods.agent.initialize, {
      protocolVersion: PROTOCOL_VERSION,
      clientCapabilities: { fs: { readTextFile: true, writeTextFile: true }, terminal: false },
      clientInfo: { name: 'agentdesk', title: 'AgentDesk', version: '0.1.0' },
    });
    let timer: NodeJS.Timeout | undefined;
    const tooSlow = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () =>
          reject(new Error(`The agent did not answer ACP initialize within ${START_TIMEOUT_MS / 1000} s.`)),
        START_TIMEOUT_MS,
      );
    });
    let response: Awaited<typeof init>;
    try {
      response = await Promise.race([init, failedToSpawn, tooSlow]).finally(() => clearTimeout(timer));
    } catch (error) {
      // An agent that exits at start: its exit code and stderr say why, "connection closed" does not.
      await Promise.race([this.exited, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      if (!this.alive && child.pid !== undefined) throw new Error(this.describeExit(), { cause: error });
      throw error;
    }
    this.agentCaps = response.agentCapabilities ?? {};
  }

  private clientApp() {
    const workspace = this.options.workspaceDir;
    return client({ name: 'agentdesk' })
      .onNotification(methods.client.session.update, ({ params }) => {
        this.listeners.get(params.sessionId)?.update(params.update);
      })
      .onRequest(methods.client.session.requestPermission, async ({ params, signal }) => {
        const listener = this.listeners.get(params.sessionId);
        if (!listener) return { outcome: { outcome: 'cancelled' } };
        return listener.permission(params, signal);
      })
      .onRequest(methods.client.fs.readTextFile, ({ params }) => readTextFile(workspace, params))
      .onRequest(methods.client.fs.writeTextFile, ({ params }) => writeTextFile(workspace, params));
  }

  private get agent() {
    if (!this.connection || !this.alive)
      throw new Error(this.exitInfo ? this.describeExit() : 'The agent is not running.');
    return this.connection.agent;
  }

  isOpen(sessionId: string): boolean {
    return this.openSessions.has(sessionId);
  }

  /** `session/new`; `meta` is the request's `_meta` (the model agent's handoff). */
  async newSession(mcpServers: McpServer[], meta?: RequestMeta): Promise<OpenedSession> {
    const response = await this.agent.request(methods.agent.session.new, {
      cwd: this.options.workspaceDir,
      mcpServers,
      ...withMeta(meta),
    });
    const sessionId = requireSessionId(response);
    this.openSessions.add(sessionId);
    return {
      sessionId,
      loaded: false,
      configOptions: response.configOptions,
      raw: response,
    };
  }

  /** `session/load` (the agent replays history meanwhile; nobody listens to it yet, so it is dropped). */
  async loadSession(sessionId: string, mcpServers: McpServer[], meta?: RequestMeta): Promise<OpenedSession> {
    const response = await this.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: this.options.workspaceDir,
      mcpServers,
      ...withMeta(meta),
    });
    this.openSessions.add(sessionId);
    return { sessionId, loaded: true, configOptions: response.configOptions, raw: response };
  }

  async setConfigOption(
    sessionId: string,
    configId: string,
    value: string,
    meta?: RequestMeta,
  ): Promise<SessionConfigOption[]> {
    const response = await this.agent.request(methods.agent.session.setConfigOption, {
      sessionId,
      configId,
      value,
      ...withMeta(meta),
    });
    return response.configOptions;
  }

  /** Older agents' `session/set_model` (see `findLegacyModels`). */
  async setLegacyModel(sessionId: string, modelId: string): Promise<void> {
    await this.agent.request('session/set_model', { sessionId, modelId });
  }

  /** `session/prompt`, with `listener` receiving the session's updates and permission requests meanwhile. */
  async prompt(
    sessionId: string,
    prompt: ContentBlock[],
    listener: SessionListener,
    meta?: RequestMeta,
  ): Promise<PromptResponse> {
    this.listeners.set(sessionId, listener);
    try {
      return requireStopReason(
        await this.agent.request(methods.agent.session.prompt, { sessionId, prompt, ...withMeta(meta) }),
      );
    } finally {
      if (this.listeners.get(sessionId) === listener) this.listeners.delete(sessionId);
    }
  }

  /** Stops routing a session's updates to its listener (a cancelled turn that no longer waits). */
  detach(sessionId: string, listener: SessionListener): void {
    if (this.listeners.get(sessionId) === listener) this.listeners.delete(sessionId);
  }

  /** `session/cancel` (a notification: the prompt then ends with stopReason `cancelled`). */
  async cancel(sessionId: string): Promise<void> {
    if (!this.connection || !this.alive) return;
    await this.connection.agent.notify(methods.agent.session.cancel, { sessionId }).catch(() => undefined);
  }

  /** Ends the process: closes stdin, then SIGTERM, then SIGKILL if it lingers. */
  async stop(cause: StopCause): Promise<void> {
    this.stopCause ??= cause;
    const child = this.child;
    if (!child) {
      this.exitInfo ??= { code: null, signal: null };
      this.markExited();
      return;
    }
    if (!this.alive) return this.exited;
    this.connection?.close(new Error(`The agent was stopped (${cause}).`));
    child.stdin?.end();
    child.kill('SIGTERM');
    const kill = setTimeout(() => child.kill('SIGKILL'), 3000);
    kill.unref();
    await this.exited;
    clearTimeout(kill);
  }
}
