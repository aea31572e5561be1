import type { Sharing } from '../../../shared/api';
import type { DeskResult, ShareState } from '../../../shared/bridge';
import type { ApiClient, ApiResult } from '../../api/api-client';
import { sharedConversationUrl } from '../../api/public-links';
import { checkConversationIds } from './argument-checks';
import type { WithApi } from './with-api';

/** Runs a sharing call and adds the public address people open (`<base>/s/<slug>`) when shared. */
export async function shareCall(
  withApi: WithApi,
  baseUrl: () => string | undefined,
  agentId: string,
  sessionId: string,
  run: (api: ApiClient) => Promise<ApiResult<Sharing>>,
): Promise<DeskResult<ShareState>> {
  const invalid = checkConversationIds(agentId, sessionId);
  if (invalid) return { ok: false, error: invalid };
  const result = await withApi(run);
  if (!result.ok) return result;
  const base = baseUrl();
  const publicUrl =
    result.value.shared && base && result.value.slug ? sharedConversationUrl(base, result.value.slug) : null;
  return { ok: true, value: { ...result.value, publicUrl } };
}
