import type {
  ArchivedConversation,
  Compartida,
  ArchivedConversationSummary,
  ConversationForked,
  ConversationListItem,
  ConversationPage,
  ConversationResponse,
  ConversationSummary,
  ConversationVersion,
  ConversationVersionView,
  ForkedConversation,
  Sharing,
  TurnoResumen,
  TurnSummary,
} from '../../shared/api';

/** The wire's conversation words -> ours (shared/api/conversation.ts), read once here for every layer above. */

export function turnSummaryFromWire(wire: TurnoResumen | null): TurnSummary | null {
  return wire && { turnId: wire.turnId, state: wire.estado, at: wire.at };
}

export function conversationFromWire(wire: ConversationListItem): ConversationSummary {
  return {
    id: wire.id,
    title: wire.titulo,
    updatedAt: wire.actualizada,
    lastTurn: turnSummaryFromWire(wire.ultimoTurno),
  };
}

export function archivedFromWire(wire: ArchivedConversation): ArchivedConversationSummary {
  return { ...conversationFromWire(wire), archivedAt: wire.archivada };
}

export function conversationPageFromWire(wire: ConversationResponse): ConversationPage {
  return {
    // Only the message's own fields: a newer server's extras stay on the wire.
    messages: wire.messages.map(({ role, content, at }) => ({ role, content, at })),
    skipped: wire.saltados,
    lastTurn: turnSummaryFromWire(wire.ultimoTurno),
  };
}

export function sharingFromWire(wire: Compartida): Sharing {
  return { shared: wire.compartida, ...(wire.slug !== undefined ? { slug: wire.slug } : {}) };
}

export function forkedFromWire(wire: ConversationForked): ForkedConversation {
  return { id: wire.id, title: wire.titulo };
}

/** An earlier version as the app keeps it: times in epoch ms. */
export function versionFromWire(wire: ConversationVersion): ConversationVersionView {
  return {
    id: wire.id,
    from: wire.desde,
    messages: wire.mensajes.map((m) => ({ role: m.role, content: m.content, at: Date.parse(m.at) })),
    madeAt: Date.parse(wire.creada),
  };
}
