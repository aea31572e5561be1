/**
 * An outside service the account's agents can use, in our words. The API client
 * (core/api/connectors-devices-api.ts) reads it from the wire's `Connector` (`nombre`, `conectado`,
 * `disponible`) and its list from `{connectors}`.
 */
export interface AccountConnector {
  id: string;
  /** `nombre` */
  name: string;
  /** `conectado`: the person connected it. */
  connected: boolean;
  /** `disponible`: this server can connect it. */
  available: boolean;
}
