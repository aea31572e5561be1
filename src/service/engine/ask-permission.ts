import { randomUUID } from 'node:crypto';
import type { RequestPermissionRequest, RequestPermissionResponse } from '@agentclientprotocol/sdk/unstable';
import type { PermissionRequest, RunTurnOptions } from './types';
import type { UpdateMapper } from './update-mapper';
import { whenAborted } from './when-aborted';

const cancelledOutcome: RequestPermissionResponse = { outcome: { outcome: 'cancelled' } };

/**
 * An agent's permission request during a turn, put to the turn's asker as our PermissionRequest; the answer
 * goes back as the option chosen, else the agent's own reject option, else cancelled.
 */
export async function askPermission(
  request: RequestPermissionRequest,
  signal: AbortSignal,
  mapper: UpdateMapper,
  options: RunTurnOptions,
): Promise<RequestPermissionResponse> {
  if (signal.aborted) return cancelledOutcome;
  const tool = mapper.mergeTool(request.toolCall);
  // What the person needs to judge the request: the edit's change and the raw input, when the agent says.
  const diff = request.toolCall.content?.find((c) => c.type === 'diff');
  if (diff?.type === 'diff') {
    tool.diff = {
      oldText: diff.oldText ?? null,
      newText: diff.newText,
      ...(tool.path ? { path: tool.path } : {}),
    };
  }
  if (request.toolCall.rawInput !== undefined) tool.rawInput = request.toolCall.rawInput;
  const asked: PermissionRequest = {
    id: `perm_${randomUUID()}`,
    title: request.toolCall.title ?? tool.title,
    tool,
    options: request.options.map((o) => ({ optionId: o.optionId, name: o.name, kind: o.kind })),
  };
  const answer = await Promise.race([
    options.requestPermission(asked, signal).catch(() => ({ denied: true as const })),
    whenAborted(signal).then(() => ({ denied: true as const })),
  ]);
  if (signal.aborted) return cancelledOutcome;
  if ('optionId' in answer && request.options.some((o) => o.optionId === answer.optionId)) {
    return { outcome: { outcome: 'selected', optionId: answer.optionId } };
  }
  // Denied (or an unknown option): pick the agent's own "reject" choice when it offers one.
  const reject =
    request.options.find((o) => o.kind === 'reject_once') ??
    request.options.find((o) => o.kind === 'reject_always');
  return reject ? { outcome: { outcome: 'selected', optionId: reject.optionId } } : cancelledOutcome;
}
