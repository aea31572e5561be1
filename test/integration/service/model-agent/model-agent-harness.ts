import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import {
  client,
  methods,
  ndJsonStream,
  PROTOCOL_VERSION,
  type ClientConnection,
  type ContentBlock,
  type McpServer,
  type NewSessionResponse,
  type PromptResponse,
  type RequestPermissionRequest,
  type SessionUpdate,
} from '@agentclientprotocol/sdk/unstable';
import { onTestFinished } from 'vitest';
import { modelAgentCommand } from '../../../../src/service/engine/model-agent-command';
import {
  HANDOFF_META_KEY,
  type Handoff,
  type HandedProvider,
} from '../../../../src/service/model-agent/handoff';
import type { ScriptedProvider } from '../../../support/scripted-providers';

/**
 * The model agent as the service runs it: its own process (the command the engine layer uses), cwd
 * its workspace, the private state folder beside it, ACP over stdio. The client side here plays the
 * service: it hands the providers over under `_meta`, records every session update, and answers
 * permission requests with the option the test chose.
 */
export interface AgentUnderTest {
  workspace: string;
  connection: ClientConnection;
  updates: SessionUpdate[];
  permissions: RequestPermissionRequest[];
  /** The option id the next permission requests get (default: allow once). */
  answer: string;
  newSession(handoff: Handoff, mcpServers?: McpServer[]): Promise<NewSessionResponse>;
  prompt(sessionId: string, text: string | ContentBlock[], handoff: Handoff): Promise<PromptResponse>;
  cancel(sessionId: string): Promise<void>;
  load(sessionId: string, handoff: Handoff): Promise<unknown>;
  /** The text of the agent's message chunks so far. */
  said(): string;
  thoughts(): string;
  stop(): Promise<void>;
}

/** A handed provider for a scripted server, as the service would hand it. */
export function handed(
  server: ScriptedProvider,
  kind: HandedProvider['kind'],
  apiKey: string,
  models: HandedProvider['models'] = [{ id: 'test-model', label: 'Test Model' }],
): HandedProvider {
  return {
    id: `${kind}-1`,
    kind,
    name: kind === 'anthropic' ? 'Anthropic' : kind === 'openai' ? 'OpenAI' : 'Scripted server',
    baseURL: server.baseURL,
    apiKey,
    models,
  };
}

export async function startModelAgent(
  options: { env?: Record<string, string>; workspace?: string } = {},
): Promise<AgentUnderTest> {
  const root = options.workspace
    ? join(options.workspace, '..')
    : await mkdtemp(join(tmpdir(), 'model-agent-'));
  const workspace = options.workspace ?? join(root, 'work');
  await mkdir(workspace, { recursive: true });
  const [program, ...args] = modelAgentCommand().command;
  const child = spawn(program!, args, {
    cwd: workspace,
    env: { ...process.env, AGENTDESK_AGENT_STATE: join(root, 'agent-state'), ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const stderr: string[] = [];
  child.stderr.setEncoding('utf8').on('data', (t: string) => stderr.push(t));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));

  const updates: SessionUpdate[] = [];
  const permissions: RequestPermissionRequest[] = [];
  const self = { answer: 'allow-once' } as AgentUnderTest;
  const connection = client({ name: 'test' })
    .onNotification(methods.client.session.update, ({ params }) => void updates.push(params.update))
    .onRequest(methods.client.session.requestPermission, ({ params }) => {
      permissions.push(params);
      return { outcome: { outcome: 'selected', optionId: self.answer } };
    })
    .connect(
      ndJsonStream(
        Writable.toWeb(child.stdin) as WritableStream<Uint8Array>,
        Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>,
      ),
    );
  await connection.agent.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {},
  });

  const meta = (handoff: Handoff) => ({ [HANDOFF_META_KEY]: handoff });
  const stop = async () => {
    child.stdin.end();
    child.kill('SIGTERM');
    await exited;
  };
  Object.assign(self, {
    workspace,
    connection,
    updates,
    permissions,
    newSession: (handoff: Handoff, mcpServers: McpServer[] = []) =>
      connection.agent.request(methods.agent.session.new, {
        cwd: workspace,
        mcpServers,
        _meta: meta(handoff),
      }),
    prompt: (sessionId: string, text: string | ContentBlock[], handoff: Handoff) =>
      connection.agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: typeof text === 'string' ? [{ type: 'text', text }] : text,
        _meta: meta(handoff),
      }),
    cancel: (sessionId: string) => connection.agent.notify(methods.agent.session.cancel, { sessionId }),
    load: (sessionId: string, handoff: Handoff) =>
      connection.agent.request(methods.agent.session.load, {
        sessionId,
        cwd: workspace,
        mcpServers: [],
        _meta: meta(handoff),
      }),
    said: () => textOf(updates, 'agent_message_chunk'),
    thoughts: () => textOf(updates, 'agent_thought_chunk'),
    stop,
  } satisfies Omit<AgentUnderTest, 'answer'>);
  onTestFinished(async () => {
    await stop();
    if (!options.workspace) await rm(root, { recursive: true, force: true });
  });
  return self;
}

function textOf(updates: SessionUpdate[], kind: 'agent_message_chunk' | 'agent_thought_chunk'): string {
  return updates
    .flatMap((u) => (u.sessionUpdate === kind && u.content.type === 'text' ? [u.content.text] : []))
    .join('');
}
