import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { extensionOperations } from '../../../../src/core/api/extension-operations';
import { readExtensionOperations } from '../../../../src/core/api/extension-operations-reader';
import { buildOpenApiDocument, openApiYaml } from '../../../../src/shared/api/openapi';

describe('extensionOperations: what a server’s /openapi.yaml says it offers of ours', () => {
  it('our own document lists fork among the marked operations, and no spec operation', () => {
    const listed = extensionOperations(openApiYaml());
    expect(listed).toContain('forkConversation');
    expect(listed).not.toContain('postMessage');
    expect(listed).not.toContain('getConversation');
  });

  it('reads the same list from the document as another server may write it: JSON, folded lines, anchors', () => {
    const listed = extensionOperations(openApiYaml());
    // JSON is YAML too; the yaml package's defaults fold long lines.
    expect(extensionOperations(JSON.stringify(parse(openApiYaml())))).toEqual(listed);
    const folded = stringify(buildOpenApiDocument(), { lineWidth: 60 });
    expect(folded).toMatch(/: >-\n/);
    expect(extensionOperations(folded)).toEqual(listed);
    const anchored = [
      'openapi: 3.1.0',
      'paths:',
      '  /a:',
      '    post: &fork',
      '      operationId: forkConversation',
      '      x-agentdesk-extension: true',
      '  /b:',
      '    put: *fork',
    ].join('\n');
    expect(extensionOperations(anchored)).toEqual(['forkConversation', 'forkConversation']);
  });

  it('a document without marks, an unreadable one, or one without paths offers nothing', () => {
    const plain = 'openapi: 3.1.0\npaths:\n  /x:\n    post:\n      operationId: forkConversation\n';
    expect(extensionOperations(plain)).toEqual([]);
    expect(extensionOperations('{{ not yaml')).toEqual([]);
    expect(extensionOperations('openapi: 3.1.0')).toEqual([]);
    expect(extensionOperations('')).toEqual([]);
  });

  it('read on its own thread, the list is the same; a thread that cannot start leaves it to this one', async () => {
    const yaml = openApiYaml();
    const here = extensionOperations(yaml);
    expect(await readExtensionOperations(yaml)).toEqual(here);
    // A build without the thread's file (the name the Electron main process gives it, here of no file).
    const named = process.env['AGENTDESK_EXTENSION_OPERATIONS_JS'];
    process.env['AGENTDESK_EXTENSION_OPERATIONS_JS'] = join(
      tmpdir(),
      'no-such-thread',
      'extension-operations.js',
    );
    try {
      expect(await readExtensionOperations(yaml)).toEqual(here);
    } finally {
      if (named === undefined) delete process.env['AGENTDESK_EXTENSION_OPERATIONS_JS'];
      else process.env['AGENTDESK_EXTENSION_OPERATIONS_JS'] = named;
    }
  });
});
