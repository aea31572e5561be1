/**
 * Secrets in a Map: for tests, and the last resort when nothing safer exists.
 * Its shape is SecretStore's, spelled out here so secret-store.ts can import this file without a cycle.
 */
export interface MemorySecretStore {
  readonly kind: 'memory';
  readonly warning?: string;
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
  delete(key: string): Promise<void>;
}

export function createMemorySecretStore(options: { warning?: string } = {}): MemorySecretStore {
  const values = new Map<string, string>();
  return {
    kind: 'memory',
    ...(options.warning ? { warning: options.warning } : {}),
    get: async (key) => values.get(key),
    set: async (key, value) => {
      values.set(key, value);
    },
    delete: async (key) => {
      values.delete(key);
    },
  };
}
