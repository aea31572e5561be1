/** The schedules area: turns a conversation runs later or on repeat. */
import type { ScheduleBody, ScheduleCreated, ScheduleListResponse, TurnoProgramado } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface ScheduleMethods {
  listSchedules(agentId: string, sessionId: string): Promise<DeskResult<ScheduleListResponse>>;
  createSchedule(
    agentId: string,
    sessionId: string,
    body: ScheduleBody,
  ): Promise<DeskResult<ScheduleCreated>>;
  deleteSchedule(
    agentId: string,
    sessionId: string,
    scheduleId: TurnoProgramado['id'],
  ): Promise<DeskResult<void>>;
}

export const schedulesArea = bridgeArea<ScheduleMethods>()({
  calls: ['listSchedules', 'createSchedule', 'deleteSchedule'],
});
