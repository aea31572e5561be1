import type { LibraryFile } from '../../../shared/api';
import { desk } from '../../desk';
import { errorWords } from '../../error-words';
import { admitFiles, type DraftAttachment } from '../../model/attachment-limits';
import { selectDraft, useDraftsStore } from '../../stores/drafts-store';

/**
 * Puts library files into a conversation's draft, as attachments of the next message. The host reads
 * the bytes (the signed URL is on the server's origin); the composer's limits apply as for any file.
 */
export async function attachFromLibrary(sessionId: string, files: readonly LibraryFile[]): Promise<string[]> {
  const draft = selectDraft(sessionId)(useDraftsStore.getState());
  const { accepted, problems } = admitFiles(draft.attachments, files);
  const read: DraftAttachment[] = [];
  for (const file of accepted) {
    const result = await desk().downloadFile(file.id);
    if (!result.ok) {
      problems.push(`${file.name} could not be read: ${errorWords(result.error)}`);
      continue;
    }
    read.push({
      id: crypto.randomUUID(),
      name: file.name,
      mimeType: result.value.mimeType || file.mimeType,
      size: file.size,
      data: result.value.dataBase64,
    });
  }
  if (read.length > 0) useDraftsStore.getState().addAttachments(sessionId, read);
  return problems;
}
