import { z } from 'zod';
import { DateTime } from './common';

/**
 * A chat message: who wrote it, what it says, and when. This is its one declaration; every layer
 * (renderer, bridge, core memory, service) uses it or a type derived from it, and
 * test/unit/shared/message-declarations.test.ts fails on a second one.
 */

/** Who wrote a message. The one spelling of `'user' | 'assistant'`. */
export const MessageRole = z.enum(['user', 'assistant']);
export type MessageRole = z.infer<typeof MessageRole>;

/** A message on the wire (the spec's `Mensaje`); fields a newer server adds are kept. */
export const ChatMessage = z.looseObject({ role: MessageRole, content: z.string(), at: DateTime });
/** A message with `at` as an ISO 8601 date-time, as the API gives it (without the unknown extras). */
export type ChatMessage = Pick<z.infer<typeof ChatMessage>, 'role' | 'content' | 'at'>;

/** A message where it is kept (the service's database, the app's memory): `at` in epoch ms. */
export type StoredMessage = Omit<ChatMessage, 'at'> & { at: number };

/** A message without its time: what an agent is given as earlier history. */
export type MessageText = Pick<ChatMessage, 'role' | 'content'>;
