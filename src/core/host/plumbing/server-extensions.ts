import type { DeskResult } from '../../../shared/bridge';
import type { WithApi } from './with-api';

/**
 * The operationIds of our extensions the signed-in server lists in its `/openapi.yaml`, read once per
 * server address: they change only when the server is updated, and a reload of the app reads them again.
 */
export function serverExtensionsReader(withApi: WithApi): () => Promise<DeskResult<string[]>> {
  const known = new Map<string, string[]>();
  return () =>
    withApi(async (api) => {
      const cached = known.get(api.baseUrl);
      if (cached) return { ok: true, value: cached };
      const read = await api.serverExtensions();
      if (read.ok) known.set(api.baseUrl, read.value);
      return read;
    });
}
