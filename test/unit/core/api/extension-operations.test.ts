import { describe, expect, it } from 'vitest';
import { extensionOperations } from '../../../../src/core/api/extensions-api';
import { openApiYaml } from '../../../../src/shared/api/openapi';

describe('extensionOperations: what a server’s /openapi.yaml says it offers of ours', () => {
  it('our own document lists fork among the marked operations, and no spec operation', () => {
    const listed = extensionOperations(openApiYaml());
    expect(listed).toContain('forkConversation');
    expect(listed).not.toContain('postMessage');
    expect(listed).not.toContain('getConversation');
  });

  it('a document without marks, an unreadable one, or one without paths offers nothing', () => {
    const plain = 'openapi: 3.1.0\npaths:\n  /x:\n    post:\n      operationId: forkConversation\n';
    expect(extensionOperations(plain)).toEqual([]);
    expect(extensionOperations('{{ not yaml')).toEqual([]);
    expect(extensionOperations('openapi: 3.1.0')).toEqual([]);
    expect(extensionOperations('')).toEqual([]);
  });
});
