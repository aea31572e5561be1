/**
 * The renderer's Content-Security-Policy, in one place: our own code only, no inline script, no
 * remote content. The Electron window (app-protocol.ts, window.ts) and browser mode's page server
 * (static-server.ts) send it as a header, and both set index.html's CSP meta element from it, so
 * the page carries the same policy whichever way it is opened.
 */

/** The directives; `extraConnect` adds origins to connect-src (browser mode's bridge socket). */
function directives(extraConnect: readonly string[]): string[] {
  return [
    "default-src 'self'",
    "script-src 'self'",
    // The code highlighter's and the PDF preview's workers (our own bundled files, nothing else).
    "worker-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self'",
    ["connect-src 'self'", ...extraConnect].join(' '),
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ];
}

/** The policy as a header. */
export function rendererCsp(extraConnect: readonly string[] = []): string {
  return directives(extraConnect).join('; ');
}

/** Directives a meta element cannot carry (browsers ignore them there, with a warning). */
const headerOnly = ['frame-ancestors', 'report-uri', 'sandbox'];

/** The header's policy as a meta element carries it: the same, less the header-only directives. */
export function metaPolicyOf(header: string): string {
  return header
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive && !headerOnly.includes(directive.split(/\s+/)[0]!.toLowerCase()))
    .join('; ');
}

const cspMeta = /(<meta\s+http-equiv="Content-Security-Policy"\s+content=")[^"]*(")/i;

/** index.html with its CSP meta element set to the policy it is served under (the header's). */
export function withCspMeta(html: string, header: string): string {
  const policy = metaPolicyOf(header);
  if (cspMeta.test(html))
    return html.replace(cspMeta, (_all, start: string, end: string) => `${start}${policy}${end}`);
  return html.replace(/<head>/i, `<head><meta http-equiv="Content-Security-Policy" content="${policy}" />`);
}
