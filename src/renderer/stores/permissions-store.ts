import { create } from 'zustand';
import { desk } from '../desk';
import { errorWords } from '../error-words';
import { resolvePermission } from '../model/turn-reducer';
import { useTurnStreamStore } from './turn-stream-store';

/** An unanswered permission is denied by the service after 10 minutes. */
export const permissionLifetimeMs = 10 * 60 * 1000;

export interface Clock {
  now(): number;
}

const key = (sessionId: string, id: string) => `${sessionId}:${id}`;

interface PermissionsStore {
  /** When each prompt was first seen (kept across conversation switches and stream replays). */
  seenAt: Record<string, number>;
  /** The option being sent, while the answer is on its way. */
  answering: Record<string, string>;
  /** Why a prompt can no longer be answered, in plain words. */
  closed: Record<string, string>;
  clock: Clock;
  noteSeen(sessionId: string, id: string): void;
  expiresAt(sessionId: string, id: string): number | undefined;
  answer(agentId: string, sessionId: string, id: string, optionId: string): Promise<void>;
  setClock(clock: Clock): void;
}

export const usePermissionsStore = create<PermissionsStore>((set, get) => ({
  seenAt: {},
  answering: {},
  closed: {},
  clock: { now: () => Date.now() },
  noteSeen(sessionId, id) {
    const k = key(sessionId, id);
    if (get().seenAt[k] === undefined) set({ seenAt: { ...get().seenAt, [k]: get().clock.now() } });
  },
  expiresAt(sessionId, id) {
    const seen = get().seenAt[key(sessionId, id)];
    return seen === undefined ? undefined : seen + permissionLifetimeMs;
  },
  async answer(agentId, sessionId, id, optionId) {
    const k = key(sessionId, id);
    set({ answering: { ...get().answering, [k]: optionId } });
    const result = await desk().answerPermission(agentId, sessionId, { id, optionId });
    const { [k]: _done, ...answering } = get().answering;
    if (result.ok && result.value.resolved) {
      // The card names the choice at once, also where the server's `permission-resolved` carries only the id.
      useTurnStreamStore.getState().update(sessionId, (s) => resolvePermission(s, id, optionId));
      return set({ answering });
    }
    const reason = result.ok
      ? 'This request is no longer open.'
      : result.error.status === 404
        ? 'This request is no longer open: it was already answered or it expired.'
        : errorWords(result.error);
    set({ answering, closed: { ...get().closed, [k]: reason } });
  },
  setClock(clock) {
    set({ clock });
  },
}));

export const permissionKey = key;
