import type { Directive } from './directives';
import type { DemoSession } from './session-store';

/** The thoughts streamed before acting: what the agent makes of the message. */
export function thoughtsFor(session: DemoSession, directive: Directive): string[] {
  const earlier = session.messages.length - 1;
  const specific: Record<Directive['kind'], string> = {
    list: 'They want to see the files in the workspace.',
    read: `They want to see ${'path' in directive ? directive.path : 'a file'}.`,
    write: `They want me to write ${'path' in directive ? directive.path : 'a file'}; I must ask before writing.`,
    wait: `They asked me to wait ${'seconds' in directive ? directive.seconds : 0} seconds.`,
    fail: 'They asked me to fail on purpose.',
    crash: 'They asked me to crash the agent process.',
    echo: 'They want their words and attachments echoed back.',
    chat:
      earlier > 0
        ? `We have exchanged ${earlier} messages so far.`
        : 'This is the start of our conversation.',
  };
  const lines = ['Reading the message.', specific[directive.kind]];
  if (session.model === 'demo-deep') lines.push('Thinking it over more carefully (demo-deep).');
  return lines;
}

/** The friendly reply to anything that is not a directive: quotes it and recalls the conversation. */
export function chatReply(session: DemoSession, text: string): string {
  const userMessages = session.messages.filter((m) => m.role === 'user');
  const count = userMessages.length;
  const previous = userMessages[count - 2]?.text;
  const memory =
    previous === undefined
      ? 'This is the first message of our conversation.'
      : `This is message ${count} of our conversation; before this you said: "${previous}".`;
  return [
    `Hello! You said: "${text.trim()}".`,
    memory,
    'I am the built-in demo agent. Try "list files", "read <path>", "write <path>" with a fenced block, "wait 5" or "fail".',
    'To use your own model, add a provider in Settings → Models.',
    `(model: ${session.model})`,
  ].join('\n');
}
