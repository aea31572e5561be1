/**
 * The public, read-only page of a shared conversation (`/s/{slug}`). Every piece of text is
 * HTML-escaped: model output and titles are never markup. `noindex` keeps it out of search.
 */

export interface PublicMessage {
  role: 'user' | 'assistant';
  content: string;
  at: string;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);
}

/** Headers of the public page: no indexing, no caching, no scripts, not framable. */
export const PUBLIC_PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

export function renderPublicPage(title: string | null, messages: PublicMessage[]): string {
  const heading = escapeHtml(title ?? 'Conversación compartida');
  const items = messages
    .map(
      (m) =>
        `<li class="${m.role}"><div class="who">${m.role === 'user' ? 'Persona' : 'Agente'} · ` +
        `<time datetime="${escapeHtml(m.at)}">${escapeHtml(m.at)}</time></div>` +
        `<div class="text">${escapeHtml(m.content)}</div></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="es">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex, nofollow">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${heading}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
ol{list-style:none;padding:0}li{margin:1rem 0;padding:.75rem 1rem;border-radius:.5rem;background:#f3f3f5}
li.user{background:#e6f0ff}.who{font-size:.8rem;color:#555;margin-bottom:.25rem}.text{white-space:pre-wrap}
</style>
</head>
<body>
<h1>${heading}</h1>
<p>Conversación de solo lectura.</p>
<ol>
${items}
</ol>
</body>
</html>
`;
}
