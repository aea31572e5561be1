/** The schedules area: turns a conversation runs later or on repeat. */
import type { Schedule, ScheduleBody } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface ScheduleMethods {
  listSchedules(agentId: string, sessionId: string): Promise<DeskResult<Schedule[]>>;
  createSchedule(agentId: string, sessionId: string, body: ScheduleBody): Promise<DeskResult<Schedule>>;
  deleteSchedule(agentId: string, sessionId: string, scheduleId: Schedule['id']): Promise<DeskResult<void>>;
}

export const schedulesArea = bridgeArea<ScheduleMethods>()({
  calls: ['listSchedules', 'createSchedule', 'deleteSchedule'],
});
