/** How carriers (IPC, the browser-mode WebSocket) tell calls from subscriptions and name channels. */
import {
  bridgeMethodNames,
  bridgeSubscriptionNames,
  type BridgeCallName,
  type BridgeSubscriptionName,
} from './bridge-contract';

export function isBridgeSubscriptionName(name: string): name is BridgeSubscriptionName {
  return (bridgeSubscriptionNames as readonly string[]).includes(name);
}

export function isBridgeCallName(name: string): name is BridgeCallName {
  return (bridgeMethodNames as readonly string[]).includes(name) && !isBridgeSubscriptionName(name);
}

/** The channel names carriers use, one per method (never a generic invoke). */
export const bridgeChannels = {
  /** Request/response channel of a call method. */
  call: (name: BridgeCallName) => `desk:${name}`,
  /** Starts a subscription; the host answers with nothing and then sends events. */
  subscribe: (name: BridgeSubscriptionName) => `desk:${name}:subscribe`,
  /** Ends a subscription. */
  unsubscribe: (name: BridgeSubscriptionName) => `desk:${name}:unsubscribe`,
  /** Host -> renderer events of a subscription, tagged with the subscription id. */
  event: (name: BridgeSubscriptionName) => `desk:${name}:event`,
} as const;
