import { parse } from 'yaml';

/**
 * operationIds of the operations an OpenAPI document marks as ours (`x-agentdesk-extension`). Parsing our
 * service's ~270 KB description takes 120-500 ms, so the host has it done on a thread of its own
 * (extension-operations-reader.ts); this is what that thread runs.
 */
export function extensionOperations(yaml: string): string[] {
  let doc: unknown;
  try {
    doc = parse(yaml);
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
