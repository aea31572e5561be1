import type { AllOf } from '../../shared/bridge/bridge-area';

type Factories<Deps> = readonly ((deps: Deps) => object)[];

/** All the areas' methods as one object, typed as the intersection of what each returns. */
export type ComposedAreas<F extends Factories<never>> = AllOf<ReturnType<F[number]>>;

/**
 * Builds each area from the shared deps record and merges their methods; the `close()` of an
 * area that has one is kept apart, to be called (in the areas' order) when the host closes.
 */
export function composeAreas<Deps, const F extends Factories<Deps>>(
  factories: F,
  deps: Deps,
): { methods: ComposedAreas<F>; close(): void } {
  const parts = factories.map((create) => create(deps));
  const closers = parts.flatMap((part) =>
    'close' in part && typeof part.close === 'function' ? [part.close as () => void] : [],
  );
  return {
    methods: Object.assign({}, ...parts) as ComposedAreas<F>,
    close: () => closers.forEach((close) => close()),
  };
}
