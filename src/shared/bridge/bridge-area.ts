/**
 * How one area of the bridge is declared: an interface of its methods plus
 * the list naming each of them, so carriers can expose exactly those names
 * (never a generic invoke). `bridgeArea<Methods>()({ calls, subscriptions })`
 * fails to compile when the lists miss a method, or put a subscription (one
 * returning an `Unsubscribe`) among the calls or the other way round.
 */
import type { Unsubscribe } from './desk-result';

/** Methods that take a listener last and return an `Unsubscribe`. */
export type SubscriptionKeys<Methods> = {
  [K in keyof Methods]: Methods[K] extends (...args: never[]) => Unsubscribe ? K : never;
}[keyof Methods] &
  string;

/** Methods that answer a `Promise<DeskResult>`. */
export type CallKeys<Methods> = Exclude<keyof Methods & string, SubscriptionKeys<Methods>>;

export interface BridgeArea<Methods> {
  readonly calls: readonly CallKeys<Methods>[];
  readonly subscriptions: readonly SubscriptionKeys<Methods>[];
  /** Type only: carries the area's method signatures to the assembled bridge. */
  readonly contract?: Methods;
}

/** The intersection of a union's members (the areas' contracts as one). */
export type AllOf<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

type Unlisted<Methods, Listed> = Exclude<keyof Methods & string, Listed>;

/** Declares an area; the second call's lists must name every method of `Methods`. */
export const bridgeArea =
  <Methods>() =>
  <
    const Calls extends readonly CallKeys<Methods>[],
    const Subscriptions extends readonly SubscriptionKeys<Methods>[] = readonly [],
  >(
    lists: { calls: Calls; subscriptions?: Subscriptions } & ([
      Unlisted<Methods, Calls[number] | Subscriptions[number]>,
    ] extends [never]
      ? unknown
      : { unlisted: Unlisted<Methods, Calls[number] | Subscriptions[number]> }),
  ): BridgeArea<Methods> & { calls: Calls; subscriptions: Subscriptions } => ({
    calls: lists.calls,
    subscriptions: (lists.subscriptions ?? []) as Subscriptions,
  });
