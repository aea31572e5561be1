import {
  apiRoutes,
  ScheduleCreated,
  ScheduleListResponse,
  type Schedule,
  type ScheduleBody,
  type TurnoProgramado,
} from '../../shared/api';
import { json, none, type ApiRequest, type CallOptions } from './api-request';

/** Our `Schedule`: the wire's item without the fields a newer server adds. */
const scheduleFromWire = ({ id, prompt, dueAt, repeatMin, until }: TurnoProgramado): Schedule => ({
  id,
  prompt,
  dueAt,
  repeatMin,
  until,
});

/** Schedules (spec section): turns a conversation runs later or on repeat. */
export function schedulesApi(http: ApiRequest) {
  const r = apiRoutes;
  return {
    listSchedule: (agentId: string, sessionId: string, call?: CallOptions) =>
      http.call(
        r.listSchedule,
        { agentId, sessionId },
        { read: json(ScheduleListResponse.transform((v) => v.programados.map(scheduleFromWire))) },
        call,
      ),
    scheduleTurn: (agentId: string, sessionId: string, body: ScheduleBody, call?: CallOptions) =>
      http.call(
        r.createSchedule,
        { agentId, sessionId },
        { read: json(ScheduleCreated.transform((v) => scheduleFromWire(v.programado))), json: body },
        call,
      ),
    cancelScheduledTurn: (agentId: string, sessionId: string, id: string, call?: CallOptions) =>
      http.call(r.cancelSchedule, { agentId, sessionId, id }, { read: none }, call),
  };
}
