import { methods, RequestError } from '@agentclientprotocol/sdk/unstable';
import type {
  AgentContext,
  ContentBlock,
  PromptResponse,
  SessionUpdate,
  StopReason,
} from '@agentclientprotocol/sdk/unstable';
import { stepCountIs, streamText, type LanguageModelUsage, type ModelMessage } from 'ai';
import { fitToContext } from './context-window';
import { providerErrorWords } from './provider-errors';
import { chooseModel } from './providers';
import { systemPrompt } from './instructions';
import type { LiveSession } from './session';
import { writeTitle } from './title';
import { gateTools, TurnCancelled } from './tool-gate';
import { workspaceTools } from './tools/workspace-tools';
import { connectMcpServers } from './tools/mcp-tools';
import { foldUsage } from './usage-report';
import { UpdateSender } from './update-sender';
import { userTurn } from './user-message';

/** Tool steps a turn may take before it stops and says so. */
export const MAX_TOOL_STEPS = 25;

export interface TurnContext {
  client: AgentContext;
  live: LiveSession;
  /** Aborts on `session/cancel`: reaches the provider's request at once. */
  signal: AbortSignal;
}

/** A turn's failure in words, as a JSON-RPC error whose `data.details` the service shows. */
export function turnError(words: string): RequestError {
  return new RequestError(-32603, words, { details: words });
}

/**
 * One prompt: the loop of goose and the AI SDK. The conversation and the tools go to the model, its
 * reply streams back (thinking as thoughts, text as chunks), the tools it calls run through the gate
 * (asking the person where they must), their results go back, and round again until the model
 * stops, the step limit is reached, or the person cancels. Usage, the title and the session's
 * messages are kept at the end, whatever the ending.
 */
export async function runModelTurn(ctx: TurnContext, prompt: ContentBlock[]): Promise<PromptResponse> {
  const { live, client, signal } = ctx;
  const session = live.saved;
  const sender = new UpdateSender((update) =>
    client.notify(methods.client.session.update, { sessionId: session.id, update }),
  );
  const send = (update: SessionUpdate) => sender.send(update);
  const chosen = chooseModel(live.handoff, session.model);
  if (typeof chosen === 'string') throw turnError(chosen);

  // Its files are read while the tools and MCP servers are made ready.
  const systemRead = systemPrompt(session.cwd);
  systemRead.catch(() => undefined);
  const { text, earlier } = userTurn(prompt, session.cwd);
  if (session.messages.length === 0) session.messages.push(...earlier);
  const firstReply = !session.titled && !session.messages.some((m) => m.role === 'assistant');
  session.messages.push({ role: 'user', content: text });

  if (!live.mcp && live.mcpServers.length > 0) {
    live.mcp = await connectMcpServers(live.mcpServers, session.cwd);
    for (const problem of live.mcp.problems) await send(thought(`${problem}\n`));
  }
  const tools = gateTools([...workspaceTools(session.cwd), ...(live.mcp?.tools ?? [])] as never[], {
    client,
    sender,
    sessionId: session.id,
    root: session.cwd,
    alwaysAllowed: session.alwaysAllowed,
    signal,
  });
  const system = await systemRead;
  const fitted = fitToContext(session.messages, system, chosen.model.contextWindow);
  if (fitted.dropped > 0) {
    await send(
      thought(
        `This conversation is longer than ${chosen.model.label} can read at once, so its ${fitted.dropped} oldest messages were left out of what the model reads now.\n`,
      ),
    );
  }

  let reply = '';
  let partial = '';
  let failure: unknown;
  let kept: ModelMessage[] = [];
  let lastStep: LanguageModelUsage | undefined;
  let total: LanguageModelUsage | undefined;
  let steps = 0;
  let lastFinish = '';
  const result = streamText({
    model: chosen.language,
    system,
    messages: fitted.messages,
    tools,
    stopWhen: stepCountIs(MAX_TOOL_STEPS),
    abortSignal: signal,
    maxRetries: 0,
    // Errors come as stream parts and end the turn in words; the default would log the request (the conversation).
    onError: () => undefined,
    onStepFinish: (step) => {
      kept = step.response.messages;
      partial = '';
    },
  });
  // The text held for its frame (update-sender.ts) goes before the turn can end, even on a throw.
  try {
    for await (const part of result.fullStream) {
      switch (part.type) {
        case 'text-delta':
          reply += part.text;
          partial += part.text;
          sender.text('agent_message_chunk', part.text);
          break;
        case 'reasoning-delta':
          if (part.text) sender.text('agent_thought_chunk', part.text);
          break;
        case 'finish-step':
          steps++;
          lastStep = part.usage;
          lastFinish = part.finishReason;
          break;
        case 'finish':
          total = part.totalUsage;
          break;
        case 'error':
          failure ??= part.error;
          break;
        case 'tool-error':
          if (part.error instanceof TurnCancelled) failure ??= part.error;
          break;
      }
    }
  } finally {
    await sender.flush();
  }

  // What the model said and did stays in the conversation, a cut-off reply too.
  session.messages.push(...kept);
  if (partial) session.messages.push({ role: 'assistant', content: partial });
  const usage = foldUsage(session, chosen.model, total ?? lastStep ?? emptyUsage(), lastStep);
  await send(usage.update);

  if (signal.aborted || failure instanceof TurnCancelled)
    return { stopReason: 'cancelled', usage: usage.prompt };
  if (failure) throw turnError(providerErrorWords(failure, chosen.provider.name, chosen.model.id));

  let stopReason: StopReason = 'end_turn';
  if (lastFinish === 'tool-calls' && steps >= MAX_TOOL_STEPS) {
    const words = `\n\nI stopped here: this turn reached its limit of ${MAX_TOOL_STEPS} tool steps. Say “go on” and I will continue.`;
    await send({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: words } });
    session.messages.push({ role: 'assistant', content: words.trim() });
    stopReason = 'max_turn_requests';
  } else if (lastFinish === 'length') {
    stopReason = 'max_tokens';
  }

  if (firstReply && reply.trim()) {
    session.titled = true;
    const title = await writeTitle(chosen.language, text, reply, signal);
    if (title) await send({ sessionUpdate: 'session_info_update', title });
  }
  return { stopReason, usage: usage.prompt };
}

const thought = (text: string): SessionUpdate => ({
  sessionUpdate: 'agent_thought_chunk',
  content: { type: 'text', text },
});

function emptyUsage(): LanguageModelUsage {
  return { inputTokens: 0, outputTokens: 0, totalTokens: 0 } as LanguageModelUsage;
}
