import { splitMarkdown } from './markdown-splitter';
import { extraString, type StreamEventMap } from './stream-event';
import { updateTurn } from './turn-timeline';
import {
  putTurn,
  type ConversationStream,
  type Part,
  type PermissionPart,
  type ToolPart,
  type Turn,
} from './turn-types';

/** The parts of a turn's reply (text, thought, tools, permission questions), for the turn reducer. Pure. */

export function partKey(turn: Turn): string {
  return `${turn.turnId}:${turn.parts.length}`;
}

export function withPart(turn: Turn, part: Part): Turn {
  return { ...turn, parts: [...turn.parts, part] };
}

/** Past this size a reply's text starts a new part at the next block boundary, so no string grows without end. */
export const textPartSealSize = 32 * 1024;

export function appendText(turn: Turn, type: 'text' | 'thought', text: string): Turn {
  const last = turn.parts[turn.parts.length - 1];
  if (last && last.type === 'text' && type === 'text' && last.text.length > textPartSealSize) {
    const cut = sealPoint(last.text, text);
    if (cut !== undefined) {
      const parts = turn.parts.slice();
      parts[parts.length - 1] = { ...last, text: last.text + text.slice(0, cut) };
      return withPart({ ...turn, parts }, { type: 'text', key: partKey(turn), text: text.slice(cut) });
    }
  }
  if (last && last.type === type) {
    const parts = turn.parts.slice();
    parts[parts.length - 1] = { ...last, text: last.text + text };
    return { ...turn, parts };
  }
  return withPart(turn, { type, key: partKey(turn), text });
}

/**
 * Where in `chunk` a new top-level markdown block starts (after a blank line, at
 * column 0, outside a code fence), or undefined. Rendering the two parts apart
 * then gives the same blocks as rendering them together.
 */
function sealPoint(text: string, chunk: string): number | undefined {
  const joined = text.slice(-2) + chunk;
  const found = /\n[ \t]*\n(?=[^\s])/.exec(joined);
  if (!found) return undefined;
  const cut = found.index + found[0].length - 2;
  if (cut <= 0) return undefined;
  const split = splitMarkdown(text + chunk.slice(0, cut) + chunk.slice(cut, cut + 1));
  return split.openStart === text.length + cut ? cut : undefined;
}

function findPart<T extends Part['type']>(
  state: ConversationStream,
  type: T,
  id: string,
): { turn: Turn; index: number } | undefined {
  // The current turn first: that is where live updates land.
  const ids = state.currentTurnId
    ? [state.currentTurnId, ...Object.keys(state.turns)]
    : Object.keys(state.turns);
  for (const turnId of ids) {
    const turn = state.turns[turnId];
    if (!turn) continue;
    const index = turn.parts.findIndex((p) => p.type === type && (p as ToolPart | PermissionPart).id === id);
    if (index >= 0) return { turn, index };
  }
  return undefined;
}

function replacePart(state: ConversationStream, turn: Turn, index: number, part: Part): ConversationStream {
  const parts = turn.parts.slice();
  parts[index] = part;
  return putTurn(state, { ...turn, parts });
}

const definedOnly = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

export function updateTool(state: ConversationStream, data: StreamEventMap['tool']): ConversationStream {
  const { turnId, ...fields } = data;
  const found = findPart(state, 'tool', data.id);
  if (found) {
    const old = found.turn.parts[found.index] as ToolPart;
    return replacePart(state, found.turn, found.index, { ...old, ...definedOnly(fields) });
  }
  return updateTurn(state, extraString(turnId), (turn) =>
    withPart(turn, { type: 'tool', key: partKey(turn), ...definedOnly(fields), id: data.id }),
  );
}

export function addPermission(
  state: ConversationStream,
  data: StreamEventMap['permission'],
): ConversationStream {
  const { turnId, ...fields } = data;
  const found = findPart(state, 'permission', data.id);
  if (found) {
    const old = found.turn.parts[found.index] as PermissionPart;
    return replacePart(state, found.turn, found.index, { ...old, ...definedOnly(fields) });
  }
  return updateTurn(state, extraString(turnId), (turn) =>
    withPart(turn, {
      type: 'permission',
      key: partKey(turn),
      id: data.id,
      title: data.title,
      tool: data.tool,
      toolCall: data.toolCall,
      options: data.options,
      resolved: false,
    }),
  );
}

export function resolvePermission(
  state: ConversationStream,
  id: string,
  chosen?: string,
): ConversationStream {
  const found = findPart(state, 'permission', id);
  if (!found) return state;
  const old = found.turn.parts[found.index] as PermissionPart;
  return replacePart(state, found.turn, found.index, {
    ...old,
    resolved: true,
    ...(chosen ? { chosen } : {}),
  });
}

/** Open permission prompts, oldest first. */
export function openPermissions(state: ConversationStream): PermissionPart[] {
  const open: PermissionPart[] = [];
  for (const item of state.items) {
    if (item.kind !== 'turn') continue;
    for (const part of state.turns[item.turnId]?.parts ?? []) {
      if (part.type === 'permission' && !part.resolved) open.push(part);
    }
  }
  return open;
}
