import { describe, expect, it } from 'vitest';
import { bridgeArea } from '../../../src/shared/bridge/bridge-area';
import type { DeskResult, Unsubscribe } from '../../../src/shared/bridge';
import { bridgeMethodNames, bridgeSubscriptionNames, isBridgeCallName } from '../../../src/shared/bridge';

interface ExampleMethods {
  listThings(): Promise<DeskResult<string[]>>;
  getThing(id: string): Promise<DeskResult<string>>;
  onThing(listener: (thing: string) => void): Unsubscribe;
}

// The @ts-expect-error lines are the compile-time half of this test: `npm run typecheck` fails
// if bridgeArea stops refusing an incomplete or mixed-up list.
describe('bridgeArea', () => {
  it('keeps the lists of an area that names every method', () => {
    const area = bridgeArea<ExampleMethods>()({
      calls: ['listThings', 'getThing'],
      subscriptions: ['onThing'],
    });
    expect(area.calls).toEqual(['listThings', 'getThing']);
    expect(area.subscriptions).toEqual(['onThing']);
  });

  it('refuses, at compile time, a list that misses a method or mixes calls and subscriptions', () => {
    // @ts-expect-error getThing is not listed
    const missing = bridgeArea<ExampleMethods>()({ calls: ['listThings'], subscriptions: ['onThing'] });
    // @ts-expect-error onThing returns an Unsubscribe: it is a subscription, not a call
    const mixed = bridgeArea<ExampleMethods>()({ calls: ['listThings', 'getThing', 'onThing'] });
    // Without the type check the runtime lists would silently lack the methods.
    expect(missing.calls).not.toContain('getThing');
    expect(mixed.subscriptions).toEqual([]);
  });

  it('the assembled bridge lists each method once, subscriptions among them and named on*', () => {
    expect(new Set(bridgeMethodNames).size).toBe(bridgeMethodNames.length);
    for (const name of bridgeSubscriptionNames) {
      expect(bridgeMethodNames).toContain(name);
      expect(name.startsWith('on')).toBe(true);
      expect(isBridgeCallName(name)).toBe(false);
    }
    expect(isBridgeCallName('sendMessage')).toBe(true);
    expect(isBridgeCallName('invoke')).toBe(false);
  });
});
