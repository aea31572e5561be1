import type { DeskError, DeskResult } from '../../../shared/bridge';
import type { ApiResult } from '../../api/api-client';

/** How host areas answer: API results become bridge results, failures plain `{ code, message }` values. */

export const deskError = (code: string, message: string): DeskError => ({ code, message });

export const fail = <T>(code: string, message: string): DeskResult<T> => ({
  ok: false,
  error: deskError(code, message),
});

export function toDeskResult<T>(result: ApiResult<T>): DeskResult<T> {
  if (result.ok) return result;
  const { code, message, status, engine } = result.error;
  return {
    ok: false,
    error: { code, message, ...(status ? { status } : {}), ...(engine ? { engine } : {}) },
  };
}

/** For API calls whose response body the spec does not show: success carries nothing. */
export async function noBody(call: Promise<ApiResult<unknown>>): Promise<ApiResult<void>> {
  const result = await call;
  return result.ok ? { ok: true, value: undefined } : result;
}
