import { describe, expect, it } from 'vitest';
import {
  Agente,
  AgentConfig,
  Archivo,
  Bundle,
  CatalogItem,
  ChatMessage,
  Compartida,
  ConversationListItem,
  McpLocalServer,
  McpRemoteServer,
  McpServer,
  MsgappNumbers,
  Skill,
  TurnoProgramado,
  TurnoResumen,
} from '../../../../src/shared/api';
import { covered, expectAccepts, expectRejects } from './schema-helpers';

const at = '2025-05-01T10:00:00.000Z';

describe('resources: spec shapes pass, one bad variant per rule fails naming the field', () => {
  it('AgentConfig', () => {
    const full = {
      id: 'ag_1',
      name: 'Ayudante',
      storage: 'box',
      hasMachine: true,
      engine: 'engine-b',
      model: 'm-large',
      models: [{ id: 'm-large', label: 'Large' }],
      prompt: 'You help.',
      promptMode: 'append',
      channels: { workchat: true },
      webSearch: false,
      mcp: [
        { name: 'github', url: 'https://mcp.example.com' },
        { name: 'fs', command: 'mcp-fs' },
      ],
      starters: ['Hola'],
      msgapp2Page: false,
      tools: { gs: { web: true }, extensions: { developer: false }, canales: { chat: { web: true } } },
      extensions: [{ name: 'developer', enabled: true }],
      files: [{ path: 'notes.md', size: 12 }],
      skills: [{ slug: 'pdf', description: 'PDFs', files: ['SKILL.md'] }],
      aplicado: ['prompt'],
      nota: 'Applies on the next conversation.',
    };
    expectAccepts(AgentConfig, full);
    expectAccepts(AgentConfig, { id: 'ag_1', name: 'x' }); // `fields` filters; id always present
    expect(AgentConfig.parse({ id: 'a', futureField: 1 })).toMatchObject({ futureField: 1 }); // loose
    expectRejects(AgentConfig, { name: 'x' }, 'id');
    expectRejects(AgentConfig, { id: 'a', engine: 'engine-z' }, 'engine');
    expectRejects(AgentConfig, { id: 'a', storage: 'disk' }, 'storage');
    expectRejects(AgentConfig, { id: 'a', promptMode: 'prepend' }, 'promptMode');
    expectRejects(AgentConfig, { id: 'a', files: [{ path: 'a', size: 1.5 }] }, 'files.0.size');
  });

  it('McpServer, remote shape', () => {
    const remote = { name: 'github', type: 'sse', url: 'https://api.example.com/mcp', headers: { A: 'b' } };
    expectAccepts(McpRemoteServer, remote);
    expect(McpRemoteServer.parse({ name: 'gh', url: 'https://x.example' }).type).toBe('http'); // default
    expectAccepts(McpServer, remote);
    expectAccepts(McpRemoteServer, { name: 'a'.repeat(41), url: 'https://x.example' });
    expect(expectRejects(McpRemoteServer, { name: 'gh', url: 'http://x.example' }, 'url')).toContain('https');
    expectRejects(McpServer, { name: 'gh', url: 'http://x.example' }, 'url');
    expectRejects(McpRemoteServer, { name: 'GitHub', url: 'https://x.example' }, 'name');
    expectRejects(McpRemoteServer, { name: '-gh', url: 'https://x.example' }, 'name');
    expectRejects(McpRemoteServer, { name: 'a'.repeat(42), url: 'https://x.example' }, 'name');
    expectRejects(McpRemoteServer, { name: 'gh', type: 'ws', url: 'https://x.example' }, 'type');
    expectRejects(McpRemoteServer, { name: 'gh', url: 'https://x.example', headers: { A: 1 } }, 'headers.A');
  });

  it('McpServer, local command shape', () => {
    const local = { name: 'files', command: 'npx', args: ['-y', 'mcp-files'], env: { ROOT: '/data' } };
    expectAccepts(McpLocalServer, local);
    expect(McpServer.parse(local)).toEqual(local);
    expectRejects(McpLocalServer, { name: 'files' }, 'command');
    expectRejects(McpServer, { name: 'files', command: 3 }, 'command');
    expectRejects(McpLocalServer, { name: 'files', command: 'x', args: 'a b' }, 'args');
    expectRejects(McpLocalServer, { name: 'files', command: 'x', env: { A: true } }, 'env.A');
  });

  it('Skill and catalog item', () => {
    expectAccepts(Skill, { slug: 'pdf', description: 'Read PDFs', files: ['SKILL.md', 'tool.py'] });
    expectRejects(Skill, { slug: 'pdf', description: 'x', files: 'SKILL.md' }, 'files');
    const item = {
      slug: 'pdf',
      description: 'Read PDFs',
      repo: 'owner/skills',
      url: 'https://example.com/owner/skills/tree/abc123/pdf',
      license: 'MIT',
      installed: false,
    };
    expectAccepts(CatalogItem, item);
    expectRejects(CatalogItem, { ...item, installed: 'no' }, 'installed');
  });

  it('Bundle', () => {
    const bundle = {
      layout: 'dir',
      files: [
        { path: 'instructions.md', contentBase64: 'aGk=' },
        { path: 'skills/pdf/SKILL.md', contentBase64: '' },
        { path: 'mcp.json', contentBase64: 'e30=' },
      ],
    };
    expectAccepts(Bundle, bundle);
    expectRejects(Bundle, { files: [{ path: 'a.md' }] }, 'files.0.contentBase64');
    expectRejects(Bundle, { files: [{ contentBase64: 'aGk=' }] }, 'files.0.path');
    expectRejects(Bundle, { files: [{ path: '../etc/passwd', contentBase64: 'aGk=' }] }, 'files.0.path');
    expectRejects(Bundle, { files: [{ path: 'a', contentBase64: 'not base64!' }] }, 'files.0.contentBase64');
    expectRejects(Bundle, { layout: 'zip', files: [] }, 'layout');
  });

  it('MsgappNumbers', () => {
    const numbers = {
      numbers: [{ id: 'n1', label: '+34 600 000 000', mine: true, takenByOther: false }],
      hasWorkspace: true,
      hasSales: false,
      salesUrl: null,
    };
    expectAccepts(MsgappNumbers, numbers);
    expectAccepts(MsgappNumbers, { ...numbers, salesUrl: 'https://sales.example', cambiados: 1 });
    expectRejects(
      MsgappNumbers,
      { ...numbers, numbers: [{ id: 'n1', label: 'x', mine: 'yes' }] },
      'numbers.0.mine',
    );
    expectRejects(MsgappNumbers, { ...numbers, cambiados: 0.5 }, 'cambiados');
  });

  it('Agente', () => {
    const base = { id: 'a1', nombre: 'Ayudante', origen: 'gs', protocolo: 'acp', necesitaToken: false };
    expectAccepts(Agente, { ...base, conexion: { tipo: 'acp', host: 'box.example', token: 't' } });
    expectAccepts(Agente, {
      ...base,
      origen: 'partner',
      conexion: { tipo: 'partner', agentId: 'p', token: 't' },
    });
    expectAccepts(Agente, { ...base, protocolo: 'http', conexion: null });
    expectRejects(Agente, { ...base, conexion: null, origen: 'other' }, 'origen');
    expectRejects(Agente, { ...base, conexion: null, protocolo: 'ws' }, 'protocolo');
    expectRejects(Agente, { ...base, conexion: { tipo: 'mail' } }, 'conexion.tipo');
    expectRejects(Agente, { ...base, conexion: { tipo: 'acp', host: 'h' } }, 'conexion.token');
  });

  it('conversation list item and TurnoResumen', () => {
    const turno = { turnId: 't1', estado: 'running', at };
    for (const estado of ['queued', 'running', 'done', 'error', 'stopped']) {
      expectAccepts(TurnoResumen, { ...turno, estado });
    }
    expectRejects(TurnoResumen, { ...turno, estado: 'paused' }, 'estado');
    expectRejects(TurnoResumen, { ...turno, at: 'yesterday' }, 'at');
    expectAccepts(ConversationListItem, { id: 'c1', titulo: 'Plan', actualizada: at, ultimoTurno: turno });
    expectAccepts(ConversationListItem, { id: 'c1', titulo: null, actualizada: null, ultimoTurno: null });
    expectRejects(
      ConversationListItem,
      { id: 'c1', titulo: null, actualizada: 'ayer', ultimoTurno: null },
      'actualizada',
    );
  });

  it("ChatMessage (the spec's Mensaje)", () => {
    expectAccepts(ChatMessage, { role: 'user', content: 'Hola', at });
    expectAccepts(ChatMessage, { role: 'assistant', content: '¿Qué tal?', at: '2025-05-01T12:00:00+02:00' });
    expectRejects(ChatMessage, { role: 'system', content: 'x', at }, 'role');
    expectRejects(ChatMessage, { role: 'user', at }, 'content');
  });

  it('TurnoProgramado', () => {
    expectAccepts(TurnoProgramado, { id: 's1', prompt: 'Resume', dueAt: at, repeatMin: null, until: null });
    expectAccepts(TurnoProgramado, { id: 's1', prompt: 'Resume', dueAt: at, repeatMin: 60, until: at });
    expectRejects(
      TurnoProgramado,
      { id: 's1', prompt: 'x', dueAt: 'soon', repeatMin: null, until: null },
      'dueAt',
    );
    expectRejects(
      TurnoProgramado,
      { id: 's1', prompt: 'x', dueAt: at, repeatMin: '60', until: null },
      'repeatMin',
    );
  });

  it('Compartida', () => {
    expectAccepts(Compartida, { compartida: true, slug: 'k3j4h5g6' });
    expectAccepts(Compartida, { compartida: false, slug: 'k3j4h5g6' });
    expectRejects(Compartida, { compartida: 'yes', slug: 'x' }, 'compartida');
  });

  it('Archivo', () => {
    const file = {
      id: 'f1',
      nombre: 'a.pdf',
      mimeType: 'application/pdf',
      size: 1024,
      url: 'https://x/f1?sig=1',
    };
    expectAccepts(Archivo, file);
    expectRejects(Archivo, { ...file, size: 1.5 }, 'size');
    expectRejects(Archivo, { ...file, url: undefined }, 'url');
  });

  it('every resource has been exercised', () => {
    const resources = [
      AgentConfig,
      McpRemoteServer,
      McpLocalServer,
      McpServer,
      Skill,
      CatalogItem,
      Bundle,
      MsgappNumbers,
      Agente,
      ConversationListItem,
      TurnoResumen,
      ChatMessage,
      TurnoProgramado,
      Compartida,
      Archivo,
    ];
    expect(resources.filter((s) => !covered.has(s))).toEqual([]);
  });
});
