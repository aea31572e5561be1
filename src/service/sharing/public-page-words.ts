import { parseAccept } from 'hono/utils/accept';

/**
 * The public share page's words in the reader's language (from `Accept-Language`; English when none of
 * these fits). The wire's names never show here: these are what a reader of the page understands.
 */
export interface PublicPageWords {
  lang: string;
  untitled: string;
  readOnly: string;
  person: string;
  agent: string;
  notShared: string;
}

const WORDS: Record<string, PublicPageWords> = {
  en: {
    lang: 'en',
    untitled: 'Shared conversation',
    readOnly: 'A read-only copy of a conversation with an AI agent, shared through a link.',
    person: 'Person',
    agent: 'Agent',
    notShared: 'This conversation is not shared, or its link no longer works.',
  },
  es: {
    lang: 'es',
    untitled: 'Una conversación compartida',
    readOnly: 'Una copia de solo lectura de una conversación con un agente de IA, compartida con un enlace.',
    person: 'Persona',
    agent: 'Agente',
    notShared: 'Esta conversación no está compartida, o su enlace ya no funciona.',
  },
  fr: {
    lang: 'fr',
    untitled: 'Conversation partagée',
    readOnly: 'Une copie en lecture seule d’une conversation avec un agent IA, partagée par un lien.',
    person: 'Personne',
    agent: 'Agent',
    notShared: 'Cette conversation n’est pas partagée, ou son lien ne fonctionne plus.',
  },
  de: {
    lang: 'de',
    untitled: 'Geteiltes Gespräch',
    readOnly: 'Eine schreibgeschützte Kopie eines Gesprächs mit einem KI-Agenten, per Link geteilt.',
    person: 'Person',
    agent: 'Agent',
    notShared: 'Dieses Gespräch ist nicht geteilt, oder sein Link funktioniert nicht mehr.',
  },
  pt: {
    lang: 'pt',
    untitled: 'Conversa compartilhada',
    readOnly: 'Uma cópia somente leitura de uma conversa com um agente de IA, compartilhada por um link.',
    person: 'Pessoa',
    agent: 'Agente',
    notShared: 'Esta conversa não está compartilhada, ou o link não funciona mais.',
  },
};

/** The best of our languages for an `Accept-Language` header: by weight, matching the primary subtag. */
export function publicPageWords(acceptLanguage: string | undefined): PublicPageWords {
  const wanted = acceptLanguage ? parseAccept(acceptLanguage) : [];
  // parseAccept hands them back heaviest first.
  for (const entry of wanted.filter((a) => a.q > 0)) {
    const primary = entry.type.toLowerCase().split('-')[0] ?? '';
    if (WORDS[primary]) return WORDS[primary];
  }
  return WORDS.en!;
}
