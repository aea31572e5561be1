import type { PermissionAnswer, PermissionRequest } from '../engine/types';
import type { ConversationRuntime } from './conversation-runtimes';
import { autoAllowOption } from './permission-broker';
import type { Turn } from './turn-record';
import { isTerminal } from '../../shared/api';

/**
 * Answers an agent's permission request for a turn: permission mode `auto` allows once at once;
 * `preguntar` streams `permission`, waits for POST permission (or the expiry, or the turn's
 * end) and streams `permission-resolved`.
 */
export async function relayPermission(
  rt: ConversationRuntime,
  turn: Turn,
  req: PermissionRequest,
  signal: AbortSignal,
): Promise<PermissionAnswer> {
  if (turn.permissionMode === 'auto') {
    const optionId = autoAllowOption(req.options);
    return optionId ? { optionId } : { denied: true };
  }
  if (rt.current !== turn || isTerminal(turn.state) || signal.aborted) return { denied: true };
  rt.log.append('permission', {
    id: req.id,
    title: req.title,
    tool: req.tool.title,
    toolCall: req.tool,
    options: req.options,
  });
  const onAbort = () => rt.broker.cancel(req.id);
  signal.addEventListener('abort', onAbort, { once: true });
  const outcome = await rt.broker.request(req.id, req.options);
  signal.removeEventListener('abort', onAbort);
  if (rt.current === turn && !isTerminal(turn.state)) {
    rt.log.append('permission-resolved', {
      id: req.id,
      optionId: outcome.outcome === 'selected' ? outcome.optionId : null,
      por: outcome.by,
    });
  }
  return outcome.outcome === 'selected' ? { optionId: outcome.optionId } : { denied: true };
}
