import { useEffect } from 'react';
import { onDeskFailure } from '../../desk';
import { useAllowanceStore } from '../../stores/allowance-store';
import { useLibraryStore } from '../../stores/library-store';

/** Once per signed-in workspace (one per account): a fresh library, and 402s from any call go to the banner. */
export function usePersonSetup(): void {
  useEffect(() => {
    useLibraryStore.getState().reset();
    return onDeskFailure((error) => useAllowanceStore.getState().report(error));
  }, []);
}
