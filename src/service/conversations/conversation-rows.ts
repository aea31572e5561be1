import type { TurnState } from '../../shared/api';

/** The rows of conversation-store.ts. */
export interface ConversationRow {
  id: string;
  agent_id: string;
  person_id: string;
  title: string | null;
  model: string | null;
  share_slug: string | null;
  created_at: number;
  updated_at: number | null;
  archived_at: number | null;
}

export interface TurnSummaryRow {
  turn_id: string;
  state: TurnState;
  at: number;
}

export interface ScheduleRow {
  id: string;
  conversation_id: string;
  prompt: string;
  due_at: number;
  repeat_min: number | null;
  until: number | null;
}

/** A turn a previous run of the service stopped under (turns/restart-recovery.ts). */
export interface InterruptedTurnRow {
  conversation_id: string;
  turn_id: string;
  state: TurnState;
}
