import type { ReactNode, RefObject } from 'react';

/**
 * Extra buttons the composer shows beside its own (dictation, the library). Features may not import
 * each other, so the workspace hands them to the chat through this slot.
 */
export type ComposerToolsSlot = (props: {
  sessionId: string;
  input: RefObject<HTMLTextAreaElement | null>;
  onProblems(problems: string[]): void;
}) => ReactNode;
