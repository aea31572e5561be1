import { matchRules } from '../../model/approval-match';
import type { ConversationStream, PermissionPart, ToolPart } from '../../model/turn-reducer';
import { useApprovalRulesStore } from '../../stores/approval-rules-store';
import { permissionKey, usePermissionsStore } from '../../stores/permissions-store';
import { useTurnStreamStore } from '../../stores/turn-stream-store';
import { askedPermission, permissionView } from './permission-view';

/** Requests already put to the rules in this window: each is checked once. */
const checked = new Set<string>();

/** The open permission requests of a conversation, each with the tool call before it (its path and kind). */
function openRequests(stream: ConversationStream): { part: PermissionPart; about?: ToolPart }[] {
  const open: { part: PermissionPart; about?: ToolPart }[] = [];
  for (const item of stream.items) {
    if (item.kind !== 'turn') continue;
    let about: ToolPart | undefined;
    for (const part of stream.turns[item.turnId]?.parts ?? []) {
      if (part.type === 'tool') about = part;
      if (part.type === 'permission' && !part.resolved) open.push({ part, about });
    }
  }
  return open;
}

/**
 * Approvals that last (issue 39, item 2): the agent's rules, read afresh, answer each new open request
 * they match through the spec's POST permission, so this works against any server. A deny wins.
 */
export async function answerByRules(agentId: string, sessionId: string): Promise<void> {
  const stream = useTurnStreamStore.getState().streams[sessionId];
  if (!stream) return;
  const waiting = openRequests(stream).filter(({ part }) => !checked.has(permissionKey(sessionId, part.id)));
  if (waiting.length === 0) return;
  const keys = waiting.map(({ part }) => permissionKey(sessionId, part.id));
  for (const key of keys) checked.add(key);
  const rules = useApprovalRulesStore.getState();
  rules.setChecking(keys, true);
  try {
    const list = await rules.load(agentId);
    for (const { part, about } of waiting) {
      const answer =
        list &&
        matchRules(list.rules, askedPermission(part, permissionView(part.toolCall, about)), part.options);
      if (!answer) continue;
      rules.noteAnswered(permissionKey(sessionId, part.id), answer.rule);
      await usePermissionsStore.getState().answer(agentId, sessionId, part.id, answer.optionId);
    }
  } finally {
    rules.setChecking(keys, false);
  }
}
