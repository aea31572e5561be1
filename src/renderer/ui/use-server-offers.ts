import { useEffect, useState } from 'react';
import { desk } from '../desk';

const none: readonly string[] = [];

/**
 * The operationIds of our service's extensions the signed-in server offers (docs/extensions.md). Empty
 * until known and on any error, so a spec-only server simply never shows what needs them.
 */
export function useServerExtensions(): readonly string[] {
  const [offered, setOffered] = useState(none);
  useEffect(() => {
    let live = true;
    void desk()
      .serverExtensions()
      .then((result) => live && setOffered(result.ok ? result.value : none));
    return () => {
      live = false;
    };
  }, []);
  return offered;
}

/** Whether the signed-in server offers one of our service's extensions, by operationId; false until known. */
export function useServerOffers(operationId: string): boolean {
  return useServerExtensions().includes(operationId);
}
