import type { AcceptedTurnState } from '../../shared/api';
import type { EngineHost } from '../engine/types';
import type { ConversationStore } from '../conversations/conversation-store';
import type { Executor } from '../db/statement';
import type { ConversationRuntime, ConversationRuntimes } from './conversation-runtimes';
import { acceptedFromRecord, acceptedOf, type Accepted, type SubmitResult } from './turn-answers';
import type { AdmissionReads } from './turn-manager-options';
import { isClosing, newTurn, type Submission, type Turn } from './turn-record';
import { routeIncoming } from './turn-state';

/** What an admission may do to the turn manager's conversations (turn-manager.ts gives it). */
export interface AdmissionDeps {
  store: ConversationStore;
  engine: EngineHost;
  runtimes: ConversationRuntimes;
  now(): number;
  persist(write: (on: Executor | undefined) => Promise<unknown>): void;
  /** Makes a new turn the conversation's current one and hands it to the engine. */
  begin(rt: ConversationRuntime, turn: Turn): AcceptedTurnState;
  /** Stops the current turn at once, for a replacement (the next waiting turn is not started). */
  stopNow(rt: ConversationRuntime, turn: Turn): void;
}

/**
 * The decision on one incoming message, from what the admission's transaction read: a repeat of a turn
 * id, a refusal, or a new, injected, replacing or waiting turn. Synchronous, so two admissions of one
 * conversation never interleave.
 */
export function admit(deps: AdmissionDeps, s: Submission, read: AdmissionReads): SubmitResult {
  const { store, engine } = deps;
  if (s.turnId) {
    const seen = read.seen;
    if (seen) {
      const accepted = {
        ...acceptedFromRecord(seen),
        repeated: true,
        queueLength: engine.queuedCount(s.agentId),
      };
      return { kind: 'accepted', accepted };
    }
  }
  const refusal = read.refusal;
  if (refusal) return { kind: 'quota_exhausted', message: refusal };

  const rt = deps.runtimes.of(s.conversationId);
  const current = rt.current;
  let route = routeIncoming(current && { ...current, closing: isClosing(current) }, s.requester);
  let accepted: Accepted | null = null;

  if (route === 'inject' && current) {
    accepted = inject(deps, current, s);
    if (!accepted) route = current.requester === s.requester ? 'replace' : 'queue';
  }
  if (!accepted) {
    const turn = newTurn(s, read.launch, read.untitled);
    if (route === 'queue' && current) {
      turn.state = 'queued';
      const at = deps.now();
      deps.persist((on) =>
        store.insertTurn(s.conversationId, turn.turnId, s.personId, s.requester, 'queued', at, on),
      );
      rt.waiting.push(turn);
      accepted = acceptedOf(turn, { state: 'queued', queueLength: engine.queuedCount(s.agentId) });
    } else {
      const replacing = route === 'replace' && current !== null;
      if (replacing) deps.stopNow(rt, current!);
      const state = deps.begin(rt, turn);
      accepted = acceptedOf(turn, {
        state,
        queueLength: turn.handle?.queueLength ?? engine.queuedCount(s.agentId) + (state === 'queued' ? 1 : 0),
        replaced: replacing,
      });
    }
  }
  const answer = accepted;
  const at = deps.now();
  if (s.turnId) deps.persist((on) => store.recordRequest(s.conversationId, s.turnId!, answer, at, on));
  return { kind: 'accepted', accepted };
}

/** Joins a message to the turn in flight; null when the engine no longer takes input. */
function inject(deps: AdmissionDeps, turn: Turn, s: Submission): Accepted | null {
  if (turn.handle) {
    if (!turn.handle.inject(s.content, s.attachments)) return null;
  } else {
    turn.early.push({ content: s.content, attachments: s.attachments });
  }
  const at = deps.now();
  deps.persist((on) => deps.store.addMessage(s.conversationId, turn.turnId, 'user', s.content, at, on));
  return acceptedOf(turn, {
    state: turn.state === 'running' ? 'running' : 'queued',
    queueLength: deps.engine.queuedCount(s.agentId),
    injected: true,
  });
}
