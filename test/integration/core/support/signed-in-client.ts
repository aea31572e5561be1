import { createApiClient } from '../../../../src/core/api/api-client';
import type { ApiClient, ApiClientOptions } from '../../../../src/core/api/api-client';
import { createMemorySecretStore } from '../../../../src/core/auth/memory-secret-store';
import { TokenManager } from '../../../../src/core/auth/token-manager';
import { DESKTOP_CLIENT_ID, signIn } from '../../../support/local-service';
import type { SignInOptions, TestService } from '../../../support/local-service';
import { recordingFetch } from './recording-fetch';

/** A token manager and API client signed in to a running local service, over a recording fetch. */
export async function signedInClient(
  service: TestService,
  options: { signIn?: SignInOptions; api?: Partial<ApiClientOptions> } = {},
): Promise<{ api: ApiClient; tokens: TokenManager; fetch: ReturnType<typeof recordingFetch> }> {
  const fetch = recordingFetch();
  const body = await signIn(service, options.signIn);
  const tokens = await TokenManager.open({
    store: createMemorySecretStore(),
    key: 'tokens:test',
    oauth: { baseUrl: service.url, clientId: DESKTOP_CLIENT_ID, fetch },
  });
  await tokens.signIn({
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: Date.now() + body.expires_in * 1000,
    scope: body.scope.split(' '),
  });
  const api = createApiClient({ baseUrl: service.url, auth: tokens, fetch, ...options.api });
  return { api, tokens, fetch };
}
