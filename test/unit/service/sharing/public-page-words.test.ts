import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  PUBLIC_PAGE_HEADERS,
  renderNotSharedPage,
  renderPublicPage,
} from '../../../../src/service/sharing/public-page';
import { publicPageWords } from '../../../../src/service/sharing/public-page-words';

const at = '2030-03-04T17:05:00.000Z';
// ICU versions differ in the space before "PM" (U+202F or a plain one): compare with plain spaces.
const page = (acceptLanguage: string | undefined) =>
  renderPublicPage(
    'Trip plans',
    [{ role: 'user', content: 'hello', at }],
    publicPageWords(acceptLanguage),
  ).replace(/\u202f/g, ' ');

describe('the public share page speaks the reader’s language', () => {
  it('picks the heaviest language it has, by primary subtag, else English', () => {
    expect(publicPageWords('fr-CA,fr;q=0.9,en;q=0.5').lang).toBe('fr');
    expect(publicPageWords('ja,de;q=0.8,es;q=0.9').lang).toBe('es');
    expect(publicPageWords('ja, zh;q=0.5').lang).toBe('en');
    expect(publicPageWords('es;q=0, de').lang).toBe('de');
    expect(publicPageWords(undefined).lang).toBe('en');
    expect(publicPageWords('').lang).toBe('en');
  });

  it('writes its words and times in that language, never the wire’s', () => {
    const english = page('en-GB');
    expect(english).toContain('<html lang="en">');
    expect(english).toContain('Person · ');
    expect(english).toContain('A read-only copy');
    expect(english).toContain('Mar 4, 2030, 5:05 PM UTC');
    expect(english).not.toMatch(/Persona|Agente|Conversación|solo lectura/);
    expect(english).not.toContain(`>${at}<`);

    const german = page('de-DE');
    expect(german).toContain('<html lang="de">');
    expect(german).toContain('04.03.2030, 17:05 UTC');
    expect(renderNotSharedPage(publicPageWords('pt-BR'))).toContain('Esta conversa não está compartilhada');
  });

  it('allows its one script, which turns times into local time, by hash', () => {
    const html = page(undefined);
    const script = /<script>([^<]*)<\/script>/.exec(html)?.[1] ?? '';
    expect(script).toContain('toLocaleString(document.documentElement.lang');
    const hash = createHash('sha256').update(script).digest('base64');
    expect(PUBLIC_PAGE_HEADERS['Content-Security-Policy']).toContain(`script-src 'sha256-${hash}'`);
  });
});
