import { randomUUID } from 'node:crypto';
import { agent, methods, PROTOCOL_VERSION, RequestError } from '@agentclientprotocol/sdk/unstable';
import type { AgentApp, McpServer, SessionConfigOption } from '@agentclientprotocol/sdk/unstable';
import { Handoff, HANDOFF_META_KEY, modelChoices } from './handoff';
import {
  loadModelSession,
  newSession,
  saveModelSession,
  type LiveSession,
  type ModelSession,
} from './session';
import { runModelTurn } from './turn';
import { messageText } from './user-message';

/** The providers a request hands over; null when it carries none (the last ones stay). */
function handoffOf(meta: Record<string, unknown> | null | undefined): Handoff | null {
  const parsed = Handoff.safeParse(meta?.[HANDOFF_META_KEY]);
  return parsed.success ? parsed.data : null;
}

/** The model selector (ACP config option of category `model`), grouped by provider; none without providers. */
function configOptions(live: LiveSession): SessionConfigOption[] {
  const choices = modelChoices(live.handoff.providers);
  if (choices.length === 0) return [];
  const current = choices.find((c) => c.id === live.saved.model)?.id ?? choices[0]!.id;
  const groups = live.handoff.providers
    .map((p) => ({
      group: p.id,
      name: p.name,
      options: choices.filter((c) => c.providerId === p.id).map((c) => ({ value: c.id, name: c.label })),
    }))
    .filter((g) => g.options.length > 0);
  return [
    { id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: current, options: groups },
  ];
}

/**
 * The built-in model agent (engine `engine-e`): an ACP agent that thinks with the person's own model
 * providers through the AI SDK. Sessions are kept in memory and saved after each turn, so
 * `session/load` restores a conversation after the process restarts. The providers (with keys)
 * arrive with each request and are never written anywhere.
 */
export function createModelAgent(): AgentApp {
  const sessions = new Map<string, LiveSession>();
  let lastHandoff: Handoff = { providers: [] };

  const fresh = (meta: Record<string, unknown> | null | undefined) => {
    const handed = handoffOf(meta);
    if (handed) lastHandoff = handed;
    return lastHandoff;
  };
  const live = (saved: ModelSession, handoff: Handoff, mcpServers: McpServer[]): LiveSession => ({
    saved,
    handoff,
    mcpServers,
    mcp: null,
    running: null,
  });
  const sessionOf = (id: string): LiveSession => {
    const session = sessions.get(id);
    if (!session) throw RequestError.sessionNotFound(id);
    return session;
  };

  return agent({ name: 'agentdesk-model-agent' })
    .onRequest(methods.agent.initialize, () => ({
      protocolVersion: PROTOCOL_VERSION,
      agentCapabilities: {
        loadSession: true,
        // Images and audio arrive as files in the workspace; text files inline.
        promptCapabilities: { image: false, audio: false, embeddedContext: true },
        mcpCapabilities: { http: true, sse: true },
      },
      agentInfo: {
        name: 'agentdesk-model-agent',
        title: 'AgentDesk agent, on your models',
        version: '1.0.0',
      },
      authMethods: [],
    }))
    .onRequest(methods.agent.session.new, async ({ params }) => {
      const handoff = fresh(params._meta);
      const choices = modelChoices(handoff.providers);
      const model = choices.find((c) => c.id === handoff.defaultModel)?.id ?? choices[0]?.id ?? null;
      const session = live(newSession(randomUUID(), params.cwd, model), handoff, params.mcpServers);
      sessions.set(session.saved.id, session);
      await saveModelSession(session.saved);
      return { sessionId: session.saved.id, configOptions: configOptions(session) };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      const handoff = fresh(params._meta);
      const known = sessions.get(params.sessionId);
      const saved = known?.saved ?? (await loadModelSession(params.cwd, params.sessionId));
      if (!saved) throw RequestError.sessionNotFound(params.sessionId);
      await known?.mcp?.close();
      const session = live(saved, handoff, params.mcpServers);
      sessions.set(saved.id, session);
      // ACP: a loaded session replays its history before the load answers.
      for (const message of saved.messages) {
        if (message.role !== 'user' && message.role !== 'assistant') continue;
        const text = messageText(message);
        if (!text) continue;
        await client.notify(methods.client.session.update, {
          sessionId: saved.id,
          update: {
            sessionUpdate: message.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk',
            content: { type: 'text', text },
          },
        });
      }
      return { configOptions: configOptions(session) };
    })
    .onRequest(methods.agent.session.setConfigOption, async ({ params }) => {
      const session = sessionOf(params.sessionId);
      session.handoff = fresh(params._meta);
      const value = params.value;
      const offered = modelChoices(session.handoff.providers).some((c) => c.id === value);
      if (params.configId !== 'model' || typeof value !== 'string' || !offered) {
        throw RequestError.invalidParams(undefined, `unknown option ${params.configId}=${String(value)}`);
      }
      session.saved.model = value;
      await saveModelSession(session.saved);
      return { configOptions: configOptions(session) };
    })
    .onRequest(methods.agent.session.prompt, async ({ params, signal, client }) => {
      const session = sessionOf(params.sessionId);
      if (session.running) throw RequestError.invalidRequest(undefined, 'a prompt is already running');
      session.handoff = fresh(params._meta);
      const abort = new AbortController();
      const onAbort = () => abort.abort();
      signal.addEventListener('abort', onAbort);
      session.running = abort;
      try {
        return await runModelTurn({ client, live: session, signal: abort.signal }, params.prompt);
      } finally {
        signal.removeEventListener('abort', onAbort);
        session.running = null;
        await saveModelSession(session.saved);
      }
    })
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.running?.abort();
    });
}
