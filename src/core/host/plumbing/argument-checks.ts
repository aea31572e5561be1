import type { z } from 'zod';
import { describeZodError } from '../../../shared/api';
import type { DeskError, DeskResult } from '../../../shared/bridge';
import { deskError, fail } from './call-results';

/** Bridge arguments come from a page: each is checked before it leaves the host. */

export function checkId(value: unknown, what: string): DeskError | undefined {
  return typeof value === 'string' && value.trim() !== '' && value.length <= 512
    ? undefined
    : deskError('invalid_argument', `${/^[aeiou]/i.test(what) ? 'An' : 'A'} ${what} is needed.`);
}

/** A failed call when the agent id is missing, so a method reads `agentCheck(agentId) ?? withApi(...)`. */
export function agentCheck(agentId: unknown): { ok: false; error: DeskError } | undefined {
  const invalid = checkId(agentId, 'agent');
  return invalid ? { ok: false, error: invalid } : undefined;
}

/** The first of an agent and a conversation id that is missing. */
export const checkConversationIds = (agentId: unknown, sessionId: unknown): DeskError | undefined =>
  checkId(agentId, 'agent') ?? checkId(sessionId, 'conversation');

export function checkBody<T>(schema: z.ZodType<T>, value: unknown): DeskResult<T> {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : fail('invalid_argument', `That can't be sent: ${describeZodError(parsed.error)}.`);
}

export function isHttpsUrl(url: unknown): url is string {
  if (typeof url !== 'string') return false;
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}
