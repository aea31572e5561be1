import { accountApi } from './account-api';
import { agentConfigApi } from './agent-config-api';
import { agentManagementApi } from './agent-management-api';
import { archivedApi } from './archived-api';
import { approvalRulesApi } from './approval-rules-api';
import { createApiRequest, type ApiClientOptions } from './api-request';
import { connectorsDevicesApi } from './connectors-devices-api';
import { conversationsApi } from './conversations-api';
import { extensionsApi } from './extensions-api';
import { filesAudioApi } from './files-audio-api';
import { modelProvidersApi } from './model-providers-api';
import { schedulesApi } from './schedules-api';
import { turnsApi } from './turns-api';
import { versionsApi } from './versions-api';

export type { ApiClientOptions, ApiResult, CallOptions } from './api-request';
export type { WorkspaceRead } from './agent-config-api';

/**
 * The typed client of the v2 API, one module per spec section over one request function
 * (api-request.ts: auth, retries, `Retry-After`, error mapping). Every method calls an entry of the
 * shared route table and returns a Result: the parsed body (checked against the shared zod schemas)
 * or an ApiError.
 */
export function createApiClient(options: ApiClientOptions) {
  const http = createApiRequest(options);
  return {
    baseUrl: http.baseUrl,
    ...accountApi(http),
    ...agentConfigApi(http),
    ...conversationsApi(http),
    ...turnsApi(http),
    ...schedulesApi(http),
    ...filesAudioApi(http),
    ...connectorsDevicesApi(http),
    ...extensionsApi(http),
    ...agentManagementApi(http),
    ...archivedApi(http),
    ...modelProvidersApi(http),
    ...versionsApi(http),
    ...approvalRulesApi(http),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
