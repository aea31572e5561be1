import { bridgeMethodNames, isBridgeSubscriptionName, type DeskBridge } from '../../../src/shared/bridge';

/**
 * A DeskBridge test double: every call answers `{ ok: true, value: { name, args } }`,
 * every subscription is recorded so the test can emit to it and see it end.
 */
export interface FakeBridge {
  bridge: DeskBridge;
  calls: { name: string; args: unknown[] }[];
  subscriptions: { name: string; args: unknown[]; emit(payload: unknown): void; active: boolean }[];
}

export function createFakeBridge(): FakeBridge {
  const fake: FakeBridge = { bridge: {} as DeskBridge, calls: [], subscriptions: [] };
  const target: Record<string, unknown> = {};
  for (const name of bridgeMethodNames) {
    if (isBridgeSubscriptionName(name)) {
      target[name] = (...args: unknown[]) => {
        const listener = args.pop() as (payload: unknown) => void;
        const entry = {
          name,
          args,
          emit: (payload: unknown) => entry.active && listener(payload),
          active: true,
        };
        fake.subscriptions.push(entry);
        return () => {
          entry.active = false;
        };
      };
    } else {
      target[name] = async (...args: unknown[]) => {
        fake.calls.push({ name, args });
        if (name === 'getPlatform') throw new Error('boom with a secret inside');
        return { ok: true, value: { name, args } };
      };
    }
  }
  fake.bridge = target as unknown as DeskBridge;
  return fake;
}
