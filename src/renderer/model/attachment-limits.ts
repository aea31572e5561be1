import type { Attachment } from '../../shared/api';
import { LIMITS } from '../../shared/api/limits';

/** A file waiting in the composer: an attachment (its bytes as base64 in `data`) with an id and size. DOM-free. */
export interface DraftAttachment extends Pick<Attachment, 'mimeType' | 'data'> {
  id: string;
  name: string;
  size: number;
}

export const maxAttachments = LIMITS.imagesPerMessageMax;
/** Our cap per file and per message, so a send is never refused halfway for size. */
export const maxAttachmentBytes = 10 * 1024 * 1024;
export const maxTotalBytes = 25 * 1024 * 1024;

export interface FileFacts {
  name: string;
  size: number;
}

/**
 * Which of the offered files fit next to those already attached, and a plain
 * sentence for each one left out.
 */
export function admitFiles<T extends FileFacts>(
  attached: readonly FileFacts[],
  offered: readonly T[],
): { accepted: T[]; problems: string[] } {
  const accepted: T[] = [];
  const problems: string[] = [];
  let count = attached.length;
  let total = attached.reduce((sum, file) => sum + file.size, 0);
  for (const file of offered) {
    if (count >= maxAttachments) {
      problems.push(`${file.name} was not added: a message can carry at most ${maxAttachments} attachments.`);
    } else if (file.size > maxAttachmentBytes) {
      problems.push(
        `${file.name} is ${megabytes(file.size)}; each attachment can be at most ${megabytes(maxAttachmentBytes)}.`,
      );
    } else if (total + file.size > maxTotalBytes) {
      problems.push(
        `${file.name} was not added: all attachments together can be at most ${megabytes(maxTotalBytes)}.`,
      );
    } else {
      accepted.push(file);
      count += 1;
      total += file.size;
    }
  }
  return { accepted, problems };
}

/** Checked again right before sending; empty when the message may go. */
export function sendProblems(attachments: readonly FileFacts[]): string[] {
  const problems: string[] = [];
  if (attachments.length > maxAttachments) {
    problems.push(
      `Remove ${attachments.length - maxAttachments} attachment(s): at most ${maxAttachments} per message.`,
    );
  }
  for (const file of attachments) {
    if (file.size > maxAttachmentBytes)
      problems.push(`${file.name} is too large to send (over ${megabytes(maxAttachmentBytes)}).`);
  }
  const total = attachments.reduce((sum, file) => sum + file.size, 0);
  if (total > maxTotalBytes)
    problems.push(`The attachments add up to ${megabytes(total)}; the most is ${megabytes(maxTotalBytes)}.`);
  return problems;
}

export function megabytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;
}
