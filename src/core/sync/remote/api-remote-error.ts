import type { ApiError } from '../../api/api-error';
import type { ApiResult } from '../../api/api-client';
import { RemoteError } from '../plan/remote-side';

/** Unwraps an API result for sync, turning a failure into a RemoteError that says whether to retry. */
export function unwrap<T>(result: ApiResult<T>, what: string): T {
  if (result.ok) return result.value;
  throw toRemoteError(result.error, what);
}

export function toRemoteError(error: ApiError, what: string): RemoteError {
  // A 2xx whose body could not be read (cut short, not JSON) is a transport fault: worth another
  // try, never the server's verdict on the request.
  const unreadable = error.code === 'invalid_response';
  const status = error.status === 0 || unreadable ? undefined : error.status;
  const retryAfter = (error as ApiError & { retryAfterMs?: number }).retryAfterMs;
  const permanent = status !== undefined && status >= 400 && status < 500 && status !== 429;
  return new RemoteError(`${what}: ${error.message}`, status, retryAfter, permanent, error.unreachable);
}
