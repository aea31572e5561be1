/**
 * The contract between the renderer and its host (Electron preload, browser
 * mode, or a test double), assembled from one module per area. The renderer
 * reaches the host only through `window.desk`, which implements `DeskBridge`.
 * A new area is one file beside this one (see bridge-area.ts) plus its line
 * in `areas` below; the rules every method keeps are in desk-result.ts.
 *
 * Platform-free: these files import only types from `../api`.
 */
import type { BridgeArea } from './bridge-area';
import { accountArea } from './account';
import { agentsArea } from './agents';
import { connectorsArea } from './connectors';
import { conversationsArea } from './conversations';
import { libraryArea } from './library';
import { memoryArea } from './memory';
import { platformArea } from './platform';
import { schedulesArea } from './schedules';
import { sessionArea } from './session';
import { studioArea } from './studio';
import { settingsArea } from './settings';
import { syncArea } from './sync';

export type * from './account';
export type * from './agents';
export type * from './connectors';
export type * from './conversations';
export * from './desk-result';
export type * from './library';
export type * from './memory';
export type * from './platform';
export type * from './schedules';
export type * from './session';
export type * from './studio';
export type * from './settings';
export type * from './sync';

/** Every area of the bridge, in the order carriers list their methods. */
const areas = [
  sessionArea,
  agentsArea,
  conversationsArea,
  schedulesArea,
  libraryArea,
  platformArea,
  syncArea,
  memoryArea,
  studioArea,
  accountArea,
  connectorsArea,
  settingsArea,
] as const;

type Area = (typeof areas)[number];
type ContractOf<A> = A extends BridgeArea<infer Methods> ? Methods : never;
type AllOf<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

export type DeskBridge = AllOf<ContractOf<Area>>;

export type BridgeMethodName = keyof DeskBridge;
export type BridgeSubscriptionName = Area['subscriptions'][number];
export type BridgeCallName = Exclude<BridgeMethodName, BridgeSubscriptionName>;

/** The subscription methods: the listener is the last argument, the return an Unsubscribe. */
export const bridgeSubscriptionNames: readonly BridgeSubscriptionName[] = areas.flatMap(
  (a) => a.subscriptions,
);

/** Every name on `DeskBridge`, so carriers (preload, browser socket) expose exactly these. */
export const bridgeMethodNames: readonly BridgeMethodName[] = areas.flatMap((a) => [
  ...a.calls,
  ...a.subscriptions,
]);

// Compile-time proof that the lists name every method (each area proves its own in bridgeArea), and
// that subscriptions are `on*`.
type MissingFromList = Exclude<BridgeMethodName, Area['calls'][number] | BridgeSubscriptionName>;
const listIsComplete: [MissingFromList] extends [never] ? true : MissingFromList = true;
const subscriptionsAreOn: [Exclude<BridgeSubscriptionName, `on${string}`>] extends [never] ? true : false =
  true;
void listIsComplete;
void subscriptionsAreOn;

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
