import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * A chat message `{role, content, at}` is declared once (src/shared/api/message.ts); every other layer
 * derives from it. This scan reads every source file's syntax tree and lists each independent
 * declaration of a message shape: an interface or object type with a `role` and a `content` (or `text`)
 * member, or a zod object schema with both. It also finds `'user' | 'assistant'` spelled out anywhere
 * but in the one zod enum.
 */

const ROOT = join(__dirname, '../../..');
const SRC = join(ROOT, 'src');
const HOME = 'src/shared/api/message.ts';
const ZOD_OBJECTS = new Set(['object', 'looseObject', 'strictObject']);
/** Shapes that look like a message and are not one, each with the reason. */
const NOT_A_MESSAGE: Record<string, string> = {
  // A row of the transcript view: a person's text, or a reply ('reply' is not a message role).
  'src/renderer/model/transcript-context.ts': "{ role: 'user'; text: string }",
};

interface Finding {
  file: string;
  line: number;
  kind: 'message shape' | 'role list';
  text: string;
}

function namesOf(members: readonly (ts.TypeElement | ts.ObjectLiteralElementLike)[]): Set<string> {
  const names = new Set<string>();
  for (const m of members)
    if (m.name && (ts.isIdentifier(m.name) || ts.isStringLiteral(m.name))) names.add(m.name.text);
  return names;
}

const isMessageShape = (names: Set<string>) =>
  names.has('role') && (names.has('content') || names.has('text'));

const literalTexts = (nodes: readonly ts.Node[]): string[] =>
  nodes.flatMap((n) => {
    if (ts.isLiteralTypeNode(n) && ts.isStringLiteral(n.literal)) return [n.literal.text];
    if (ts.isStringLiteral(n)) return [n.text];
    return [];
  });

const isRoleList = (texts: string[]) =>
  texts.length === 2 && texts.includes('user') && texts.includes('assistant');

export function findMessageDeclarations(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Finding[] = [];
  const add = (node: ts.Node, kind: Finding['kind']) =>
    found.push({
      file,
      line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1,
      kind,
      text: node.getText(sf),
    });
  const visit = (node: ts.Node) => {
    if (
      (ts.isInterfaceDeclaration(node) || ts.isTypeLiteralNode(node)) &&
      isMessageShape(namesOf(node.members))
    )
      add(node, 'message shape');
    if (
      ts.isCallExpression(node) &&
      ts.isPropertyAccessExpression(node.expression) &&
      ts.isIdentifier(node.expression.expression) &&
      node.expression.expression.text === 'z' &&
      ZOD_OBJECTS.has(node.expression.name.text) &&
      node.arguments[0] &&
      ts.isObjectLiteralExpression(node.arguments[0]) &&
      isMessageShape(namesOf(node.arguments[0].properties))
    )
      add(node, 'message shape');
    if (ts.isUnionTypeNode(node) && isRoleList(literalTexts(node.types))) add(node, 'role list');
    if (ts.isArrayLiteralExpression(node) && isRoleList(literalTexts(node.elements))) add(node, 'role list');
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

describe('a chat message has one declaration', () => {
  const findings = sourceFiles(SRC)
    .map((path) => relative(ROOT, path))
    .flatMap((file) => findMessageDeclarations(file, readFileSync(join(ROOT, file), 'utf8')))
    .filter((f) => !(f.file in NOT_A_MESSAGE && f.text.startsWith(NOT_A_MESSAGE[f.file]!)));

  it('declares the message shape and the role list only in src/shared/api/message.ts', () => {
    expect(findings.map((f) => `${f.file}:${f.line} ${f.kind}`)).toEqual([
      `${HOME}:11 role list`,
      `${HOME}:15 message shape`,
    ]);
  });

  it('the scan catches a second declaration in any of its forms', () => {
    const second = `
      interface Row { role: 'user' | 'assistant'; content: string; at: number }
      type Said = { role: string; text: string };
      const schema = z.looseObject({ role: Role, content: z.string() });
      const roles = ['assistant', 'user'];`;
    expect(findMessageDeclarations('x.ts', second).map((f) => `${f.line} ${f.kind}`)).toEqual([
      '2 message shape',
      '2 role list',
      '3 message shape',
      '4 message shape',
      '5 role list',
    ]);
    expect(findMessageDeclarations('x.ts', 'type Row = StoredMessage & { position: number };')).toEqual([]);
  });
});
