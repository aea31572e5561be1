import { ScheduleBody } from '../../../shared/api';
import type { ScheduleMethods } from '../../../shared/bridge';
import { checkBody, checkConversationIds, checkId } from '../plumbing/argument-checks';
import { noBody } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';

/** The schedules area: turns a conversation runs later or on repeat. */
export function createSchedulesArea({ withApi }: { withApi: WithApi }): ScheduleMethods {
  return {
    async listSchedules(agentId, sessionId) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => api.listSchedule(agentId, sessionId));
    },

    async createSchedule(agentId, sessionId, body) {
      const invalid = checkConversationIds(agentId, sessionId);
      if (invalid) return { ok: false, error: invalid };
      const checked = checkBody(ScheduleBody, body);
      if (!checked.ok) return checked;
      return withApi((api) => api.scheduleTurn(agentId, sessionId, checked.value));
    },

    async deleteSchedule(agentId, sessionId, scheduleId) {
      const invalid = checkConversationIds(agentId, sessionId) ?? checkId(scheduleId, 'scheduled turn');
      if (invalid) return { ok: false, error: invalid };
      return withApi((api) => noBody(api.cancelScheduledTurn(agentId, sessionId, scheduleId)));
    },
  };
}
