import {
  apiRoutes,
  ConnectorsResponse,
  ConnectorStartResult,
  type DevicesBody,
  type DevicesDeleteBody,
} from '../../shared/api';
import { json, none, type ApiRequest, type CallOptions } from './api-request';

/** Connectors and devices (spec section): outside services the agents use, and push devices. */
export function connectorsDevicesApi(http: ApiRequest) {
  const r = apiRoutes;
  return {
    listConnectors: (call?: CallOptions) =>
      http.call(r.listConnectors, {}, { read: json(ConnectorsResponse) }, call),
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
