import { randomUUID } from 'node:crypto';
import { agent, methods, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk/unstable';
import type { AgentApp, ClientCapabilities, SessionConfigOption } from '@agentclientprotocol/sdk/unstable';
import { DEMO_MODELS } from './demo-models';
import { runDemoTurn } from './demo-turn';
import { loadSession, saveSession, type DemoSession } from './session-store';

export interface DemoAgentOptions {
  /** Pause between streamed pieces, in ms (0: as fast as the pipe goes). */
  paceMs?: number;
  /** How the `crash` directive ends the process (never settles). */
  crash?: () => Promise<never>;
}

/** The model selector, as an ACP session config option with category `model`. */
function configOptions(session: DemoSession): SessionConfigOption[] {
  return [
    {
      id: 'model',
      name: 'Model',
      category: 'model',
      type: 'select',
      currentValue: session.model,
      options: DEMO_MODELS.map((m) => ({ value: m.id, name: m.label })),
    },
  ];
}

/**
 * The built-in demo agent: an ACP agent that is deterministic, offline and
 * needs no keys. Sessions are kept in memory and saved in the workspace, so
 * `session/load` restores a conversation after the process restarts.
 */
export function createDemoAgent(options: DemoAgentOptions = {}): AgentApp {
  const sessions = new Map<string, DemoSession>();
  const running = new Map<string, AbortController>();
  let clientCaps: ClientCapabilities = {};
  const crash =
    options.crash ??
    (async (): Promise<never> => {
      process.exit(70);
    });

  const sessionOf = (id: string): DemoSession => {
    const session = sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  };

  return agent({ name: 'agentdesk-demo' })
    .onRequest(methods.agent.initialize, ({ params }) => {
      clientCaps = params.clientCapabilities ?? {};
      return {
        protocolVersion: PROTOCOL_VERSION,
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: true, embeddedContext: true },
        },
        agentInfo: { name: 'agentdesk-demo', title: 'AgentDesk demo agent', version: '1.0.0' },
        authMethods: [],
      };
    })
    .onRequest(methods.agent.session.new, async ({ params }) => {
      const session: DemoSession = {
        id: randomUUID(),
        cwd: params.cwd,
        model: DEMO_MODELS[0].id,
        messages: [],
        allowWrites: false,
        inputTokens: 0,
        outputTokens: 0,
      };
      sessions.set(session.id, session);
      await saveSession(session);
      return { sessionId: session.id, configOptions: configOptions(session) };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      const session = sessions.get(params.sessionId) ?? (await loadSession(params.cwd, params.sessionId));
      if (!session) throw RequestError.sessionNotFound(params.sessionId);
      sessions.set(session.id, session);
      // ACP: a loaded session replays its history before the load answers.
      for (const message of session.messages) {
        await client.notify(methods.client.session.update, {
          sessionId: session.id,
          update: {
            sessionUpdate: message.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk',
            content: { type: 'text', text: message.text },
          },
        });
      }
      return { configOptions: configOptions(session) };
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
      const session = sessionOf(params.sessionId);
      const value = params.value;
      if (
        params.configId !== 'model' ||
        typeof value !== 'string' ||
        !DEMO_MODELS.some((m) => m.id === value)
      ) {
        throw RequestError.invalidParams(undefined, `unknown option ${params.configId}=${String(value)}`);
      }
      session.model = value;
      await saveSession(session);
      return { configOptions: configOptions(session) };
    })
    .onRequest(methods.agent.session.prompt, async ({ params, signal, client }) => {
      const session = sessionOf(params.sessionId);
      if (running.has(session.id))
        throw RequestError.invalidRequest(undefined, 'a prompt is already running');
      const abort = new AbortController();
      const onAbort = () => abort.abort();
      signal.addEventListener('abort', onAbort);
      running.set(session.id, abort);
      try {
        const ctx = { client, session, clientCaps, signal: abort.signal, paceMs: options.paceMs ?? 0, crash };
        return await runDemoTurn(ctx, params.prompt);
      } finally {
        signal.removeEventListener('abort', onAbort);
        running.delete(session.id);
        await saveSession(session);
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      running.get(params.sessionId)?.abort();
    });
}
