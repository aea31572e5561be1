import {
  apiRoutes,
  ConnectorsResponse,
  ConnectorStartResult,
  type DevicesBody,
  type AccountConnector,
  type Connector,
  type DevicesDeleteBody,
} from '../../shared/api';
import { json, none, type ApiRequest, type CallOptions } from './api-request';

/** Our `AccountConnector`: the wire's `Connector` under our words. */
const connectorFromWire = (wire: Connector): AccountConnector => ({
  id: wire.id,
  name: wire.nombre,
  connected: wire.conectado,
  available: wire.disponible,
});

/** Connectors and devices (spec section): outside services the agents use, and push devices. */
export function connectorsDevicesApi(http: ApiRequest) {
  const r = apiRoutes;
  return {
    listConnectors: (call?: CallOptions) =>
      http.call(
        r.listConnectors,
        {},
        { read: json(ConnectorsResponse.transform((v) => v.connectors.map(connectorFromWire))) },
        call,
      ),
    /** Where the person goes to connect (a page of the provider). */
    startConnector: (id: string, call?: CallOptions) =>
      http.call(r.startConnector, { id }, { read: json(ConnectorStartResult) }, call),
    disconnectConnector: (id: string, call?: CallOptions) =>
      http.call(r.deleteConnector, { id }, { read: none }, call),
    registerDevice: (body: DevicesBody, call?: CallOptions) =>
      http.call(r.registerDevice, {}, { read: none, json: body, resendable: true }, call),
    unregisterDevice: (body: DevicesDeleteBody, call?: CallOptions) =>
      http.call(r.unregisterDevice, {}, { read: none, json: body }, call),
  };
}
