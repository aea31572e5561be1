import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * Issue 29, item 4: the wire's Spanish names and our internal words never reach the screen. Every piece
 * of text a person can see in the app (JSX text, visible attributes, and every string with a space in
 * the renderer) and on the service's own pages is read from the source and checked against those words.
 * Code-only strings (ids, wire values such as `preguntar`) have no space and are not visible, so they are
 * not read; the share page's translations are (they are checked for the words of the other languages).
 */
const root = join(import.meta.dirname, '../../..');
const VISIBLE_ATTRIBUTES = new Set(['aria-label', 'title', 'placeholder', 'label', 'alt', 'about']);
const SHOWN_WORDS =
  /\b(reiniciado|aplicado|ignorado|cambiados|Conversación|Mi agente|Persona|Agente|compartida|detalle|saltados|nota|estado|motor|enCola|inyectado|detenido|resuelto|conectado|disponible|archivada|reposo|titulo|nombre|usuario|necesitaToken|reemplazoAnterior|repetido|programados?|canales|ultimoTurno|actualizada|borrada|Msgapp\d|msgapp\d|house persona|house-lite|engine-[b-e]|agente_no_acp|machines?|sandbox)\b/;

function files(dir: string, test: (name: string) => boolean): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The visible texts of one source file, with their line numbers. */
function visibleTexts(file: string): { text: string; line: number }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: { text: string; line: number }[] = [];
  const note = (node: ts.Node, text: string) =>
    found.push({ text, line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1 });
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node) && node.text.trim()) note(node, node.text.trim());
    else if (ts.isJsxAttribute(node) && VISIBLE_ATTRIBUTES.has(node.name.getText()) && node.initializer) {
      if (ts.isStringLiteral(node.initializer)) note(node, node.initializer.text);
    } else if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) {
      if (/\s/.test(node.text) && !ts.isImportDeclaration(node.parent)) note(node, node.text);
    } else if (ts.isTemplateExpression(node)) {
      const parts = [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join(' ');
      if (/\s/.test(parts)) note(node, parts);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const shownSources = [
  ...files('src/renderer', (name) => /\.tsx?$/.test(name)),
  ...files('src/service/pages', (name) => name.endsWith('.ts')),
  join(root, 'src/service/sharing/public-page.ts'),
  join(root, 'src/service/conversations/thread-title.ts'),
  join(root, 'src/service/engine/engine-about.ts'),
  join(root, 'src/service/agent-config/tools-about.ts'),
];

describe('visible words', () => {
  it('reads the texts of the app and the service pages (the scan itself finds them)', () => {
    const texts = shownSources.flatMap((file) => visibleTexts(file).map((t) => t.text));
    expect(texts.length).toBeGreaterThan(500);
    expect(texts).toContain('Notify me when a reply finishes while AgentDesk is in the background');
  });

  it('never shows a Spanish wire name or an internal word', () => {
    const shown = shownSources.flatMap((file) =>
      visibleTexts(file)
        .filter((t) => SHOWN_WORDS.test(t.text))
        .map((t) => `${relative(root, file)}:${t.line}: ${t.text}`),
    );
    expect(shown).toEqual([]);
  });

  it('never shows a pattern: every regex rule of the shared contract explains itself in words', () => {
    const messages: string[] = [];
    for (const file of files('src/shared/api', (name) => name.endsWith('.ts'))) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        if (
          ts.isCallExpression(node) &&
          ts.isPropertyAccessExpression(node.expression) &&
          node.expression.name.text === 'regex'
        ) {
          const options = node.arguments[1];
          const error =
            options && ts.isObjectLiteralExpression(options)
              ? options.properties.find((p) => p.name?.getText() === 'error')
              : undefined;
          const text = error && ts.isPropertyAssignment(error) ? error.initializer.getText() : '(no message)';
          messages.push(`${relative(root, file)}: ${text}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(messages.length).toBeGreaterThan(3);
    // Rules only a program meets (PKCE, signed URLs) are not shown to a person and keep their terse words.
    const shown = messages.filter((m) => !/code_challenge|code_verifier|\(no message\)/.test(m));
    expect(shown.filter((m) => /\^\[|\]\{|\$['`]|\\d/.test(m))).toEqual([]);
  });

  it('would catch one if it came back', () => {
    for (const bad of [
      'The machine was restarted (reiniciado).',
      'Msgapp1 numbers',
      'Add to the house persona',
      'Server note (nota): restart needed',
      'The reply ended (estado: error).',
      '3 turns enCola',
    ]) {
      expect(SHOWN_WORDS.test(bad)).toBe(true);
    }
  });
});
