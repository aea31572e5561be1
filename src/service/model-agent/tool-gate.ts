import { methods } from '@agentclientprotocol/sdk/unstable';
import type {
  AgentContext,
  RequestPermissionResponse,
  SessionUpdate,
  ToolCallContent,
} from '@agentclientprotocol/sdk/unstable';
import { asSchema, tool, type FlexibleSchema, type Schema, type Tool, type ToolSet } from 'ai';
import type { AgentTool, FileChange, ToolOutcome } from './tools/agent-tool';
import { shown } from './tools/workspace-paths';
import type { UpdateSender } from './update-sender';

/** What the gate needs of the turn. */
export interface GateContext {
  client: AgentContext;
  /** The turn's updates in order (the reply text before a tool's card). */
  sender: UpdateSender;
  sessionId: string;
  root: string;
  /** Tool names the person always allows in this session (changed in place by "always allow"). */
  alwaysAllowed: string[];
  signal: AbortSignal;
}

/** Thrown when the turn was cancelled while a tool waited or ran: the loop ends as `cancelled`. */
export class TurnCancelled extends Error {
  override readonly name = 'AbortError';
}

const OPTIONS = [
  { optionId: 'allow-once', name: 'Allow once', kind: 'allow_once' as const },
  {
    optionId: 'allow-always',
    name: 'Always allow this tool in this conversation',
    kind: 'allow_always' as const,
  },
  { optionId: 'reject', name: 'Reject', kind: 'reject_once' as const },
];

const textContent = (text: string): ToolCallContent => ({ type: 'content', content: { type: 'text', text } });
const diffContent = (change: FileChange): ToolCallContent => ({
  type: 'diff',
  path: change.path,
  oldText: change.oldText,
  newText: change.newText,
});

/**
 * The agent's tools as the AI SDK's, with the person in between: each call is an ACP `tool_call`
 * whose status moves pending → in_progress → completed or failed (with the diff of a write or an
 * edit), and a tool that asks waits for `session/request_permission` (allow once, always allow this
 * tool in this session, reject). A failure or a refusal goes back to the model as the tool's result,
 * so it can say so or try another way; a cancel ends the turn.
 */
export function gateTools(tools: AgentTool<never>[], ctx: GateContext): ToolSet {
  const set: ToolSet = {};
  for (const agentTool of tools) set[agentTool.name] = gated(agentTool as AgentTool<unknown>, ctx);
  return set;
}

/**
 * Each tool's schema as the AI SDK's Schema, made once per process: the SDK turns a zod schema into JSON
 * Schema at every request it is given anew (1-5 ms for the six workspace tools, 18 ms the first time),
 * and a Schema keeps the JSON it made.
 */
const schemas = new WeakMap<object, Schema<unknown>>();
function keptSchema(schema: FlexibleSchema<unknown>): Schema<unknown> {
  let kept = schemas.get(schema);
  if (!kept) schemas.set(schema, (kept = asSchema(schema)));
  return kept;
}

function gated(agentTool: AgentTool<unknown>, ctx: GateContext): Tool {
  const send = (update: SessionUpdate) => ctx.sender.send(update);
  return tool({
    description: agentTool.description,
    inputSchema: keptSchema(agentTool.inputSchema),
    execute: async (input: unknown, { toolCallId }): Promise<string> => {
      const title = agentTool.title(input);
      const base = { toolCallId, title, kind: agentTool.kind, rawInput: input };
      const fail = async (detail: string, forModel: string) => {
        await send({
          sessionUpdate: 'tool_call_update',
          toolCallId,
          status: 'failed',
          content: [textContent(detail)],
        });
        return forModel;
      };
      let preview: Awaited<ReturnType<NonNullable<AgentTool['preview']>>>;
      try {
        preview = (await agentTool.preview?.(input)) ?? {};
      } catch (error) {
        await send({ sessionUpdate: 'tool_call', ...base, status: 'pending' });
        const message = (error as Error).message;
        return fail(message, `Error: ${message}`);
      }
      const locations = preview.path ? [{ path: preview.path }] : undefined;
      await send({
        sessionUpdate: 'tool_call',
        ...base,
        status: 'pending',
        ...(locations ? { locations } : {}),
      });

      if (agentTool.asks && !ctx.alwaysAllowed.includes(agentTool.name)) {
        const answer: RequestPermissionResponse = await ctx.client.request(
          methods.client.session.requestPermission,
          {
            sessionId: ctx.sessionId,
            toolCall: {
              ...base,
              status: 'pending',
              ...(locations ? { locations } : {}),
              ...(preview.change ? { content: [diffContent(preview.change)] } : {}),
            },
            options: OPTIONS,
          },
          { cancellationSignal: ctx.signal },
        );
        if (answer.outcome.outcome === 'cancelled' || ctx.signal.aborted) {
          await send({
            sessionUpdate: 'tool_call_update',
            toolCallId,
            status: 'failed',
            content: [textContent('Cancelled.')],
          });
          throw new TurnCancelled('cancelled while asking permission');
        }
        const chosen = answer.outcome.optionId;
        if (chosen === 'allow-always') ctx.alwaysAllowed.push(agentTool.name);
        if (chosen !== 'allow-once' && chosen !== 'allow-always') {
          return fail(
            'Permission refused.',
            `The person refused permission for “${title}”. It was not done; do not try it again unless they ask.`,
          );
        }
      }

      await send({ sessionUpdate: 'tool_call_update', toolCallId, status: 'in_progress' });
      let outcome: ToolOutcome;
      try {
        outcome = await agentTool.run(input, ctx.signal);
      } catch (error) {
        if (ctx.signal.aborted) {
          await send({
            sessionUpdate: 'tool_call_update',
            toolCallId,
            status: 'failed',
            content: [textContent('Cancelled.')],
          });
          throw new TurnCancelled('cancelled while a tool ran');
        }
        const message = error instanceof Error ? error.message : String(error);
        return fail(message, `Error: ${message}`);
      }
      const where = outcome.path ?? preview.path;
      await send({
        sessionUpdate: 'tool_call_update',
        toolCallId,
        status: 'completed',
        ...(where ? { locations: [{ path: where }] } : {}),
        content: [
          textContent(summary(outcome, ctx.root)),
          ...(outcome.change ? [diffContent(outcome.change)] : []),
        ],
        rawOutput: { output: outcome.output },
      });
      return outcome.output;
    },
  });
}

/** What the person reads under a finished call: the first lines of its output. */
function summary(outcome: ToolOutcome, root: string): string {
  if (outcome.change) return outcome.output.replace(outcome.change.path, shown(root, outcome.change.path));
  const lines = outcome.output.split('\n');
  return lines.length > 20
    ? `${lines.slice(0, 20).join('\n')}\n… (${lines.length - 20} more lines)`
    : outcome.output;
}
