import type { DeskResult } from '../../../shared/bridge';
import type { ApiResult } from '../../api/api-client';
import type { WithApi } from './with-api';

/**
 * The operationIds of our extensions the signed-in server lists in its `/openapi.yaml`, read once per
 * server address: they change only when the server is updated, and a reload of the app reads them again.
 * Screens opening together share the one read under way: each read parses a description of about 270 KB on
 * the host's thread (tens of ms), and a start asked for it eight times at once.
 */
export function serverExtensionsReader(withApi: WithApi): () => Promise<DeskResult<string[]>> {
  const reads = new Map<string, Promise<ApiResult<string[]>>>();
  return () =>
    withApi(async (api) => {
      let read = reads.get(api.baseUrl);
      if (!read) {
        read = api.serverExtensions();
        reads.set(api.baseUrl, read);
      }
      const answer = await read;
      // A failed read is not kept: the next screen asks again.
      if (!answer.ok && reads.get(api.baseUrl) === read) reads.delete(api.baseUrl);
      return answer;
    });
}
