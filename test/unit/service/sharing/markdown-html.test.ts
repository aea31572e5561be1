import { describe, expect, it } from 'vitest';
import { markdownToHtml } from '../../../../src/service/sharing/markdown-html';

// The public page reads a message's Markdown by the app's rules (issue 39, item 3): real elements for
// Markdown, never for raw HTML, links only to web and mail addresses, images as words.
describe('markdownToHtml', () => {
  it('renders headings, emphasis, lists, tables, quotes and code with its language', () => {
    const html = markdownToHtml(
      [
        '# Reading a CSV',
        'Here is **how** to compute the *average*.',
        '## Steps',
        '- Open the file',
        '- Divide',
        '',
        '1. First',
        '2. Second',
        '',
        '| Step | Function |',
        '|---|---|',
        '| 1 | open() |',
        '',
        '```python',
        'print(1 < 2)',
        '```',
        '',
        '> Tip: use `pandas`',
      ].join('\n'),
    );
    expect(html).toContain('<h1>Reading a CSV</h1>');
    expect(html).toContain('<strong>how</strong>');
    expect(html).toContain('<em>average</em>');
    expect(html).toContain('<h2>Steps</h2>');
    expect(html).toMatch(/<ul>\s*<li>Open the file<\/li>/);
    expect(html).toMatch(/<ol>\s*<li>First<\/li>/);
    expect(html).toMatch(/<table>[\s\S]*<th>Step<\/th>[\s\S]*<td>open\(\)<\/td>/);
    expect(html).toContain('<div class="code-lang">python</div>');
    expect(html).toContain('<code class="language-python">print(1 &lt; 2)\n</code>');
    expect(html).toMatch(/<blockquote>\s*<p>Tip: use <code>pandas<\/code><\/p>\s*<\/blockquote>/);
  });

  it('shows raw HTML as its characters, never as markup', () => {
    const html = markdownToHtml('<img src=x onerror="alert(1)">\n\nHi <b>bold</b> <script>alert(2)</script>');
    expect(html).not.toMatch(/<img|<b>|<script/);
    expect(html).toContain('&lt;img src=x onerror="alert(1)">');
    expect(html).toContain('&lt;b>bold&lt;/b>');
    expect(html).toContain('&lt;script>alert(2)&lt;/script>');
  });

  it('opens only web and mail links, and never loads an image', () => {
    const html = markdownToHtml(
      '[site](https://example.com) [mail](mailto:a@example.com) [bad](javascript:alert(1)) ![a pixel](https://tracker.example/p.png)',
    );
    expect(html).toContain(
      '<a href="https://example.com" rel="noreferrer noopener nofollow" target="_blank">site</a>',
    );
    expect(html).toContain('<a href="mailto:a@example.com"');
    expect(html).toContain('<span>bad</span>');
    expect(html).not.toContain('javascript:');
    expect(html).toContain('[image: a pixel]');
    expect(html).not.toContain('tracker.example');
  });
});
