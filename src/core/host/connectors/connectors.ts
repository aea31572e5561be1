import type { ConnectorMethods } from '../../../shared/bridge';
import { checkId } from '../plumbing/argument-checks';
import { fail, noBody } from '../plumbing/call-results';
import type { WithApi } from '../plumbing/with-api';

/** The connectors area: list, connect in the system browser, disconnect. */
export function createConnectorsArea(deps: {
  withApi: WithApi;
  /** Opens the provider's page in the system browser. */
  openExternal(url: string): void | Promise<void>;
}): ConnectorMethods {
  return {
    async listConnectors() {
      return deps.withApi((api) => api.listConnectors());
    },

    async connectConnector(connectorId) {
      const invalid = checkId(connectorId, 'connector');
      if (invalid) return { ok: false, error: invalid };
      const started = await deps.withApi((api) => api.startConnector(connectorId));
      if (!started.ok) return started;
      // The URL comes from the server, never the page; still, only web links are opened.
      if (!/^https?:\/\//i.test(started.value.url))
        return fail('bad_response', 'The server gave a connection address that is not a web link.');
      await deps.openExternal(started.value.url);
      return { ok: true, value: undefined };
    },

    async disconnectConnector(connectorId) {
      const invalid = checkId(connectorId, 'connector');
      if (invalid) return { ok: false, error: invalid };
      return deps.withApi((api) => noBody(api.disconnectConnector(connectorId)));
    },
  };
}
