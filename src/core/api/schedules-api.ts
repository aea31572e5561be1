import { apiRoutes, ScheduleCreated, ScheduleListResponse } from '../../shared/api';
import { json, none, type ApiRequest, type CallOptions } from './api-request';

export interface ScheduleTurnInput {
  prompt: string;
  inMinutes?: number;
  dueAt?: string;
  repeatMin?: number | null;
  until?: string | null;
}

/** Schedules (spec section): turns a conversation runs later or on repeat. */
export function schedulesApi(http: ApiRequest) {
  const r = apiRoutes;
  return {
    listSchedule: (agentId: string, sessionId: string, call?: CallOptions) =>
      http.call(r.listSchedule, { agentId, sessionId }, { read: json(ScheduleListResponse) }, call),
    scheduleTurn: (agentId: string, sessionId: string, body: ScheduleTurnInput, call?: CallOptions) =>
      http.call(r.createSchedule, { agentId, sessionId }, { read: json(ScheduleCreated), json: body }, call),
    cancelScheduledTurn: (agentId: string, sessionId: string, id: string, call?: CallOptions) =>
      http.call(r.cancelSchedule, { agentId, sessionId, id }, { read: none }, call),
  };
}
