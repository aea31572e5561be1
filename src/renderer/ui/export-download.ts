import type { ExportFormat } from '../../shared/bridge';
import { desk } from '../desk';
import { errorWords } from '../error-words';

/** Saves text (as UTF-8) or bytes as a file through the browser's download. */
export function download(
  fileName: string,
  mimeType: string,
  content: string | Uint8Array<ArrayBuffer>,
): void {
  const type = typeof content === 'string' ? `${mimeType};charset=utf-8` : mimeType;
  const url = URL.createObjectURL(new Blob([content], { type }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Exports the whole conversation from the host's store: Markdown with thoughts and tool calls folded,
 * or JSON with every stored detail. Returns a plain sentence when it could not.
 */
export async function exportStored(
  agentId: string,
  sessionId: string,
  format: ExportFormat,
): Promise<string> {
  const result = await desk().exportConversation(agentId, sessionId, format);
  if (!result.ok) return errorWords(result.error);
  download(result.value.fileName, result.value.mimeType, result.value.text);
  return '';
}
