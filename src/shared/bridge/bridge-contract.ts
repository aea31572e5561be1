/**
 * The whole bridge, assembled from its areas: the `DeskBridge` type and the names carriers
 * expose (never a generic invoke). Each area proves its own lists in bridgeArea; the proof
 * below checks the assembly.
 */
import type { AllOf, BridgeArea } from './bridge-area';
import { bridgeAreas } from './areas';

type Area = (typeof bridgeAreas)[number];
type ContractOf<A> = A extends BridgeArea<infer Methods> ? Methods : never;

export type DeskBridge = AllOf<ContractOf<Area>>;

export type BridgeMethodName = keyof DeskBridge;
export type BridgeSubscriptionName = Area['subscriptions'][number];
export type BridgeCallName = Exclude<BridgeMethodName, BridgeSubscriptionName>;

/** The subscription methods: the listener is the last argument, the return an Unsubscribe. */
export const bridgeSubscriptionNames: readonly BridgeSubscriptionName[] = bridgeAreas.flatMap(
  (a) => a.subscriptions,
);

/** Every name on `DeskBridge`, so carriers (preload, browser socket) expose exactly these. */
export const bridgeMethodNames: readonly BridgeMethodName[] = bridgeAreas.flatMap((a) => [
  ...a.calls,
  ...a.subscriptions,
]);

// Compile-time proof that the lists name every method, and that subscriptions are `on*`.
type MissingFromList = Exclude<BridgeMethodName, Area['calls'][number] | BridgeSubscriptionName>;
const listIsComplete: [MissingFromList] extends [never] ? true : MissingFromList = true;
const subscriptionsAreOn: [Exclude<BridgeSubscriptionName, `on${string}`>] extends [never] ? true : false =
  true;
void listIsComplete;
void subscriptionsAreOn;
