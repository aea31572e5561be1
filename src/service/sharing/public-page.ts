import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../shared/api';
import { markdownToHtml } from './markdown-html';
import type { PublicPageWords } from './public-page-words';

/**
 * The public, read-only page of a shared conversation (`/s/{slug}`), in the reader's language. Messages
 * read as Markdown by the app's own safe rules (./markdown-html.ts: raw HTML is shown as text, never
 * markup); titles and names are HTML-escaped. `noindex` keeps it out of
 * search. Times are written in UTC and turned into the reader's local time by one inline script, the
 * only one the page's CSP allows (by its hash).
 */

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

/** Rewrites each `<time>` in the reader's local time zone, in the page's language. */
const LOCAL_TIMES_SCRIPT =
  "for(const t of document.querySelectorAll('time[datetime]')){const d=new Date(t.dateTime);" +
  "if(!isNaN(d))t.textContent=d.toLocaleString(document.documentElement.lang,{dateStyle:'medium',timeStyle:'short'})}";
const LOCAL_TIMES_HASH = createHash('sha256').update(LOCAL_TIMES_SCRIPT).digest('base64');

/** Headers of the public page: no indexing, no caching, no script but the local-times one, not framable. */
export const PUBLIC_PAGE_HEADERS: Record<string, string> = {
  'Content-Type': 'text/html; charset=utf-8',
  'X-Robots-Tag': 'noindex, nofollow',
  'Cache-Control': 'no-store',
  'Content-Security-Policy': `default-src 'none'; style-src 'unsafe-inline'; script-src 'sha256-${LOCAL_TIMES_HASH}'; frame-ancestors 'none'`,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
};

/** A time in UTC, in the page's language: what a reader without scripts sees. */
function utcTime(at: string, lang: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  const shown = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });
  return `${shown.format(date)} UTC`;
}

export function renderPublicPage(
  title: string | null,
  messages: ChatMessage[],
  words: PublicPageWords,
): string {
  const heading = escapeHtml(title ?? words.untitled);
  const items = messages
    .map(
      (m) =>
        `<li class="${m.role}"><div class="who">${escapeHtml(m.role === 'user' ? words.person : words.agent)} · ` +
        `<time datetime="${escapeHtml(m.at)}">${escapeHtml(utcTime(m.at, words.lang))}</time></div>` +
        `<div class="text">${markdownToHtml(m.content)}</div></li>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="${words.lang}">
<head>
<meta charset="utf-8">
<meta name="robots" content="noindex, nofollow">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${heading}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:46rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;line-height:1.5}
ol.messages{list-style:none;padding:0}ol.messages>li{margin:1rem 0;padding:.75rem 1rem;border-radius:.5rem;background:#f3f3f5}
ol.messages>li.user{background:#e6f0ff}.who{font-size:.8rem;color:#555;margin-bottom:.25rem}
.text{overflow-wrap:anywhere}.text>:first-child{margin-top:0}.text>:last-child{margin-bottom:0}
.text h1,.text h2,.text h3{line-height:1.25;margin:1em 0 .4em}.text h1{font-size:1.4rem}.text h2{font-size:1.2rem}.text h3{font-size:1.05rem}
.text table{border-collapse:collapse;margin:.5em 0}.text th,.text td{border:1px solid #c7c7cc;padding:3px 8px}
.text code{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:.9em;background:#e5e5ea;padding:1px 4px;border-radius:4px}
.code-block{margin:.5em 0}.code-lang{font-size:.75rem;color:#555;margin-bottom:2px}
.code-block pre{margin:0;padding:.6rem .75rem;border:1px solid #c7c7cc;border-radius:.4rem;background:#fafafa;overflow-x:auto}
.code-block pre code{background:none;padding:0}
.text blockquote{margin:.5em 0;padding:.1em .9em;border-left:3px solid #8e8e93;color:#3a3a3c}
@media (prefers-color-scheme:dark){body{background:#1c1c1e;color:#f2f2f7}ol.messages>li{background:#2c2c2e}ol.messages>li.user{background:#1f2d4d}
.who,.code-lang{color:#b0b0b8}.text code{background:#3a3a3c}.code-block pre{background:#242426;border-color:#48484a}
.text th,.text td{border-color:#48484a}.text blockquote{border-color:#8e8e93;color:#d1d1d6}a{color:#6cb4ff}}
</style>
</head>
<body>
<h1>${heading}</h1>
<p>${escapeHtml(words.readOnly)}</p>
<ol class="messages">
${items}
</ol>
<script>${LOCAL_TIMES_SCRIPT}</script>
</body>
</html>
`;
}

/** The page for a link that leads nowhere (unknown or no longer shared), in the reader's language. */
export function renderNotSharedPage(words: PublicPageWords): string {
  return `<!doctype html><html lang="${words.lang}"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow"><title>${escapeHtml(words.untitled)}</title></head><body><p>${escapeHtml(words.notShared)}</p></body></html>`;
}
