import { Fragment, type ReactNode } from 'react';

/** A server's sentence with `backticked` commands shown as code (never as HTML). */
export function codeWords(text: string): ReactNode {
  return text
    .split('`')
    .map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : <Fragment key={i}>{part}</Fragment>));
}
