import { load } from 'js-yaml';

/**
 * operationIds of the operations an OpenAPI document marks as ours (`x-agentdesk-extension`). The host has
 * our service's ~270 KB description parsed on a thread of its own (extension-operations-reader.ts); this is
 * what that thread runs. js-yaml, not the `yaml` package: in a new thread, whose code V8 has not optimised
 * yet, `yaml` took 340-420 ms to parse it, js-yaml a third of that (it builds the values directly, with no
 * document tree in between), and the screens of our extensions wait for this list.
 */
export function extensionOperations(yaml: string): string[] {
  let doc: unknown;
  try {
    doc = load(yaml);
  } catch {
    return [];
  }
  const paths = (doc as { paths?: unknown } | null)?.paths;
  if (!paths || typeof paths !== 'object') return [];
  return Object.values(paths as Record<string, unknown>).flatMap((item) =>
    Object.values((item ?? {}) as Record<string, unknown>).flatMap((operation) => {
      const op = operation as { operationId?: unknown; 'x-agentdesk-extension'?: unknown } | null;
      return op?.['x-agentdesk-extension'] === true && typeof op.operationId === 'string'
        ? [op.operationId]
        : [];
    }),
  );
}
