import { describe, expect, it } from 'vitest';
import { isTerminal } from '../../../../src/shared/api';
import { canMove, routeIncoming } from '../../../../src/service/turns/turn-state';
import { escapeHtml, renderPublicPage } from '../../../../src/service/sharing/public-page';
import { publicPageWords } from '../../../../src/service/sharing/public-page-words';
import { looksLikeShareSlug, newShareSlug } from '../../../../src/service/sharing/share-slug';

describe('turn state machine', () => {
  it('moves only along the table', () => {
    expect(canMove('queued', 'running')).toBe(true);
    expect(canMove('running', 'done')).toBe(true);
    expect(canMove('running', 'queued')).toBe(false);
    expect(canMove('done', 'running')).toBe(false);
    expect(isTerminal('stopped')).toBe(true);
    expect(isTerminal('running')).toBe(false);
  });

  it('routes a new message: new, inject, replace (requester only), queue', () => {
    expect(routeIncoming(null, 'a')).toBe('new');
    expect(routeIncoming({ state: 'done', closing: true, requester: 'a' }, 'b')).toBe('new');
    expect(routeIncoming({ state: 'running', closing: false, requester: 'a' }, 'b')).toBe('inject');
    expect(routeIncoming({ state: 'queued', closing: false, requester: 'a' }, 'a')).toBe('inject');
    expect(routeIncoming({ state: 'running', closing: true, requester: 'a' }, 'a')).toBe('replace');
    expect(routeIncoming({ state: 'running', closing: true, requester: 'a' }, 'b')).toBe('queue');
  });
});

describe('sharing', () => {
  it('makes unguessable slugs (256 bits)', () => {
    const a = newShareSlug();
    expect(looksLikeShareSlug(a)).toBe(true);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(newShareSlug()).not.toBe(a);
  });

  it('escapes every message on the public page', () => {
    const html = renderPublicPage(
      '<b>t</b>',
      [{ role: 'assistant', content: '<script>alert(1)</script>', at: '2030-01-01T00:00:00.000Z' }],
      publicPageWords(undefined),
    );
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<b>t</b>');
    // The Markdown renderer escapes every `<` (a `>` alone opens no tag): the script is text, shown as written.
    expect(html).toContain('&lt;script>alert(1)&lt;/script>');
    expect(html).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(escapeHtml(`"'&`)).toBe('&quot;&#39;&amp;');
  });
});
