/** The connectors area: the person's links to outside providers (`/api/v2/me/connectors`). */
import type { AccountConnector } from '../api';
import { bridgeArea } from './bridge-area';
import type { DeskResult } from './desk-result';

export interface ConnectorMethods {
  listConnectors(): Promise<DeskResult<AccountConnector[]>>;
  /** Asks the server for the provider's URL and opens it in the system browser. */
  connectConnector(connectorId: string): Promise<DeskResult<void>>;
  /** Disconnects and revokes at the provider. */
  disconnectConnector(connectorId: string): Promise<DeskResult<void>>;
}

export const connectorsArea = bridgeArea<ConnectorMethods>()({
  calls: ['listConnectors', 'connectConnector', 'disconnectConnector'],
});
