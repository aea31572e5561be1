import { z } from 'zod';
import { LIMITS } from './limits';
import { Attachment, PermissionMode } from './requests';

/**
 * A message the app sends: the one input of the send path, from the composer through the bridge and the
 * host to the API client, under these names all the way. The API client alone writes the wire's names
 * (`images`, `primerTurno`, `permisos`) and makes the turn id when none is given.
 */
export const SendMessageInput = z.object({
  content: z.string({ error: 'A message needs some text' }),
  attachments: z
    .array(Attachment)
    .max(LIMITS.imagesPerMessageMax, {
      error: `a message carries at most ${LIMITS.imagesPerMessageMax} attachments`,
    })
    .optional(),
  /** The conversation was empty: the server titles it when this turn ends. */
  firstTurn: z.boolean().optional(),
  /** `preguntar` when the app shows and answers `permission` events. */
  permissionMode: PermissionMode.optional(),
  /** The idempotency key, for a caller that resends a message it sent before. */
  turnId: z.uuid({ error: 'turnId must be a uuid' }).optional(),
});
export type SendMessageInput = z.infer<typeof SendMessageInput>;
