/**
 * Text from elsewhere (a model's reply, a server's message, a file name) as a terminal may show it.
 * A terminal obeys escape sequences in what it prints, so a reply carrying ESC could move the
 * cursor, rewrite earlier lines or set the window title; direction overrides could make a name
 * read backwards. Those characters are written out as visible `\u001b`-style escapes instead.
 */

// C0 and C1 control characters, NUL and DEL included; line breaks and tabs are kept by the caller.
// eslint-disable-next-line no-control-regex
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
// eslint-disable-next-line no-control-regex
const everyControl = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const escaped = (character: string): string => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** Multi-line text (a reply, a thought): line breaks and tabs stay, a CR LF becomes a line break. */
export function terminalText(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(controls, escaped);
}

/** One-line text (a path, a title, a label): every control character is escaped, line breaks too. */
export function terminalLine(text: string): string {
  return text.replace(everyControl, escaped);
}
