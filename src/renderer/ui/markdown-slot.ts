import { createContext, type ComponentType } from 'react';

/**
 * How Markdown is shown: the chat's safe renderer (never raw HTML). A feature that shows Markdown but may
 * not import the chat (the library's preview) reads it here; features/*.tsx hand it over. Without one,
 * the text is shown as it is.
 */
export const MarkdownSlot = createContext<ComponentType<{ text: string }> | null>(null);
