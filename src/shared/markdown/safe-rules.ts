/**
 * What the app and the public share page both do with a reply's Markdown beyond parsing it: which links
 * open, what an image shows instead of loading, and which language a code block names. One set of rules,
 * so a shared conversation reads as it does in the app.
 */

/** Only web and mail addresses open; a `javascript:` or `data:` link stays text. */
const OPENABLE = /^(https?:|mailto:)/i;

export function isOpenableLink(href: string | undefined | null): href is string {
  return !!href && OPENABLE.test(href);
}

/** A reply never makes its reader fetch from elsewhere (a tracking pixel): an image shows as its words. */
export function imageAsWords(alt: string | undefined | null): string {
  return `[image${alt ? `: ${alt}` : ''}]`;
}

/** The language a fenced code block names (`language-python` on its `<code>`), or `undefined`. */
export function codeLanguage(className: unknown): string | undefined {
  const names = Array.isArray(className)
    ? className
    : typeof className === 'string'
      ? className.split(' ')
      : [];
  for (const name of names) {
    if (typeof name === 'string' && name.startsWith('language-') && name.length > 'language-'.length) {
      return name.slice('language-'.length);
    }
  }
  return undefined;
}
