import { useEffect, useState } from 'react';
import { desk } from '../desk';

/**
 * Whether the signed-in server offers one of our service's extensions, by operationId (docs/extensions.md).
 * False until known and on any error, so a spec-only server simply never shows what needs it.
 */
export function useServerOffers(operationId: string): boolean {
  const [offered, setOffered] = useState(false);
  useEffect(() => {
    let live = true;
    void desk()
      .serverExtensions()
      .then((result) => live && setOffered(result.ok && result.value.includes(operationId)));
    return () => {
      live = false;
    };
  }, [operationId]);
  return offered;
}
