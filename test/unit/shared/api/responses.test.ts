import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentConfig,
  AgentDeleted,
  Agente,
  StartingPoints,
  AgentPrograms,
  ModelProvider,
  ModelProviders,
  ProviderRemoved,
  McpJsonRpcAnswer,
  AgenteNoAcp,
  CatalogSkillFolder,
  Archivo,
  Bundle,
  Compartida,
  MsgappNumbers,
  BundlePostResult,
  CancelResult,
  ConnectorStartResult,
  ConnectorsResponse,
  ConversationCreated,
  ConversationResponse,
  ConversationsResponse,
  DeletedAccount,
  ErrorBody,
  FileDeletedResult,
  FilePutResult,
  FilesListing,
  FilesResponse,
  FileUrlResponse,
  McpPutResult,
  McpResponse,
  MeAgentsResponse,
  ModelSet,
  OAuthServerMetadata,
  ScheduleCancelled,
  ConversationArchived,
  ArchivedConversations,
  ConversationRestored,
  ConversationRewound,
  ConversationVersions,
  ApprovalRule,
  ApprovalRules,
  ApprovalRuleRemoved,
  ConversationRenamed,
  MethodNotAllowed,
  NotFound,
  OAuthErrorBody,
  OkResult,
  PermissionNotFound,
  PermissionNotOpen,
  PermissionResult,
  PostMessageAccepted,
  ProveedoresResponse,
  QuotaError,
  Reiniciando,
  RestartResult,
  RevokeResult,
  ScheduleCreated,
  ScheduleListResponse,
  SkillPutResult,
  SkillsResponse,
  SttResult,
  TokenResponse,
  TryResult,
  describeZodError,
  routes,
} from '../../../../src/shared/api';
import { ConversationForked, McpStatusResponse } from '../../../../src/shared/api/routes/extensions';
import { covered, expectAccepts, expectRejects } from './schema-helpers';

const at = '2025-05-01T10:00:00Z';
const turno = { turnId: 't1', estado: 'done', at };
const programado = { id: 's1', prompt: 'Resume', dueAt: at, repeatMin: null, until: null };

describe('response bodies: spec shapes pass, a wrong field fails naming it', () => {
  it('agent configuration responses', () => {
    expectAccepts(FilesListing, { dir: 'notes', files: [{ path: 'notes/a.md', size: 3 }] });
    expectRejects(FilesListing, { files: [] }, 'dir');
    expectAccepts(FilePutResult, { path: 'a.md', bytes: 3, en: '/data/work/a.md' });
    expectRejects(FilePutResult, { path: 'a.md', bytes: '3', en: '/data/work/a.md' }, 'bytes');
    expectAccepts(SkillsResponse, {
      skills: [{ slug: 'pdf', description: 'x', files: ['SKILL.md'] }],
      community: [
        { slug: 'csv', description: 'y', repo: 'o/r', url: 'https://x', license: 'MIT', installed: false },
      ],
    });
    expectRejects(SkillsResponse, { skills: [] }, 'community');
    expectAccepts(CatalogSkillFolder, {
      slug: 'csv',
      repo: 'o/r',
      pin: 'abc123',
      license: 'CC0-1.0',
      files: { 'SKILL.md': '---\ndescription: y\n---\n' },
    });
    expectRejects(
      CatalogSkillFolder,
      { slug: 'csv', repo: 'o/r', pin: 'a', license: 'x', files: ['SKILL.md'] },
      'files',
    );
    expectAccepts(SkillPutResult, { slug: 'pdf', files: ['SKILL.md'], bytes: 40, nota: 'Ready next turn.' });
    expectAccepts(McpResponse, { servers: [{ name: 'gh', type: 'http', url: 'https://gh.example' }] });
    expectAccepts(McpPutResult, { servers: [], reiniciado: true });
    expectRejects(McpPutResult, { servers: [] }, 'reiniciado');
    expectAccepts(RestartResult, { reiniciado: true, sandboxId: 'sb_1' });
    expectAccepts(TryResult, { text: 'Hola', error: null, session: 'default' });
    expectAccepts(TryResult, { text: '', error: 'The agent crashed.', session: 'default' });
    expectRejects(TryResult, { text: '', session: 'default' }, 'error');
    expectAccepts(BundlePostResult, { aplicado: ['instructions.md'], ignorado: ['x.bin'], nota: 'Applied.' });
    expectAccepts(OkResult, { ok: true });
  });

  it('account and conversation responses', () => {
    expectAccepts(DeletedAccount, { borrada: true });
    expectRejects(DeletedAccount, { borrada: false }, 'borrada');
    const agente = {
      id: 'a1',
      nombre: 'Ayudante',
      origen: 'gs',
      protocolo: 'acp',
      conexion: null,
      necesitaToken: true,
    };
    expectAccepts(MeAgentsResponse, { agentes: [agente], usuario: { id: 'u1', email: 'ana@example.com' } });
    expectAccepts(MeAgentsResponse, { agentes: [], usuario: { id: 'u1' } }); // without `profile`
    expectRejects(MeAgentsResponse, { agentes: [], usuario: {} }, 'usuario.id');
    expectAccepts(ConversationsResponse, {
      conversaciones: [{ id: 'c1', titulo: null, actualizada: at, ultimoTurno: turno }],
    });
    expectAccepts(ConversationCreated, { id: 'c1' });
    expectAccepts(ConversationResponse, {
      messages: [{ role: 'user', content: 'Hola', at }],
      saltados: 0,
      ultimoTurno: null,
    });
    expectRejects(ConversationResponse, { messages: [], ultimoTurno: null }, 'saltados');
  });

  it('turn responses', () => {
    const accepted = {
      turnId: 't1',
      key: 'c1:t1',
      estado: 'queued',
      enCola: 0,
      reemplazoAnterior: false,
      repetido: false,
      inyectado: false,
    };
    expectAccepts(PostMessageAccepted, accepted);
    expectAccepts(PostMessageAccepted, { ...accepted, estado: 'running', inyectado: true });
    expectRejects(PostMessageAccepted, { ...accepted, estado: 'done' }, 'estado');
    expectRejects(PostMessageAccepted, { ...accepted, repetido: undefined }, 'repetido');
    expectAccepts(CancelResult, { detenido: true });
    expectAccepts(ConversationRenamed, { id: 'c1', titulo: 'Nuevo' });
    expectAccepts(ConversationArchived, { id: 'c1', archivada: true });
    const archivedItem = { id: 'c1', titulo: null, actualizada: null, ultimoTurno: null };
    expectAccepts(ArchivedConversations, {
      conversaciones: [{ ...archivedItem, archivada: '2030-01-01T00:00:00.000Z' }],
    });
    expectRejects(ArchivedConversations, { conversaciones: [archivedItem] }, 'conversaciones.0.archivada');
    expectAccepts(ConversationRestored, { id: 'c1', restaurada: true });
    expectAccepts(ConversationForked, { id: 'c2', titulo: 'Plan (branch)' });
    expectRejects(ConversationForked, { id: 'c2' }, 'titulo');
    const shout = { name: 'shout', conectado: true, herramientas: ['shout'] };
    expectAccepts(McpStatusResponse, { servidores: [shout, { ...shout, conectado: false, detalle: 'Why' }] });
    expectRejects(
      McpStatusResponse,
      { servidores: [{ name: 'shout', conectado: true }] },
      'servidores.0.herramientas',
    );
    expectAccepts(ModelSet, { model: 'm-large', aplica: 'siguiente_turno' });
    expectAccepts(ScheduleCancelled, { id: 's1', cancelado: true });
    expectAccepts(PermissionResult, { resuelto: true });
    expectAccepts(ScheduleListResponse, { programados: [programado] });
    expectAccepts(ScheduleCreated, { programado });
    expectRejects(ScheduleCreated, { programado: { ...programado, dueAt: 'x' } }, 'programado.dueAt');
  });

  it('files, audio, connectors and OAuth responses', () => {
    const archivo = { id: 'f1', nombre: 'a.txt', mimeType: 'text/plain', size: 1, url: 'https://x/f1' };
    expectAccepts(FilesResponse, { archivos: [archivo] });
    expectAccepts(FileUrlResponse, { url: 'https://x/f1?sig=2' });
    expectAccepts(FileDeletedResult, { deleted: false });
    expectAccepts(SttResult, { text: 'hello world' });
    expectAccepts(ConnectorsResponse, {
      connectors: [{ id: 'demo', nombre: 'Demo', conectado: false, disponible: true }],
    });
    expectRejects(
      ConnectorsResponse,
      { connectors: [{ id: 'demo', nombre: 'Demo' }] },
      'connectors.0.conectado',
    );
    expectAccepts(ConnectorStartResult, { url: 'http://127.0.0.1:1/connect' });
    const tokens = {
      access_token: 'a',
      refresh_token: 'r',
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'profile agents:read',
    };
    expectAccepts(TokenResponse, tokens);
    expectRejects(TokenResponse, { ...tokens, token_type: 'mac' }, 'token_type');
    expectRejects(TokenResponse, { ...tokens, expires_in: undefined }, 'expires_in');
    expectAccepts(RevokeResult, {});
    expectAccepts(OAuthServerMetadata, {
      issuer: 'http://127.0.0.1:1',
      authorization_endpoint: 'http://127.0.0.1:1/oauth2/authorize',
      token_endpoint: 'http://127.0.0.1:1/oauth2/token',
      response_types_supported: ['code'],
    });
    expectAccepts(ProveedoresResponse, {
      proveedores: [{ id: 'email', nombre: 'E-mail', tipo: 'password' }],
    });
    expectAccepts(McpJsonRpcAnswer, { jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expectRejects(McpJsonRpcAnswer, { jsonrpc: '1.0', id: 1, result: {} }, 'jsonrpc');
  });

  it('error shapes', () => {
    expectAccepts(ErrorBody, { error: 'body_invalido', detalle: 'content: content is required' });
    expectAccepts(ErrorBody, { error: 'audio demasiado grande' });
    expectRejects(ErrorBody, { detalle: 'x' }, 'error');
    expectAccepts(OAuthErrorBody, { error: 'invalid_grant', error_description: 'Bad code.' });
    for (const error of ['quota_exhausted', 'trial_expired', 'own_key_required']) {
      expectAccepts(QuotaError, { error, message: 'Se acabó el saldo.' });
    }
    expectRejects(QuotaError, { error: 'broke', message: 'x' }, 'error');
    expectRejects(QuotaError, { error: 'trial_expired' }, 'message');
    expectAccepts(AgenteNoAcp, { error: 'agente_no_acp', motor: 'house-lite' });
    expectRejects(AgenteNoAcp, { error: 'agente_no_acp' }, 'motor');
    expectAccepts(PermissionNotOpen, { resuelto: false, motivo: 'no_abierto' });
    expectRejects(PermissionNotOpen, { resuelto: true, motivo: 'no_abierto' }, 'resuelto');
    expectAccepts(PermissionNotFound, { error: 'not_found' });
    expectAccepts(Reiniciando, { error: 'reiniciando' });
    expectAccepts(MethodNotAllowed, { error: 'method_not_allowed' });
    expectAccepts(NotFound, { error: 'not_found' });
    expectRejects(NotFound, { error: 'missing' }, 'error');
  });

  it('responses that are resources (their rules are in resources.test.ts)', () => {
    expectAccepts(AgentConfig, { id: 'a1', nota: 'Applies from the next conversation.', aplicado: ['name'] });
    expectAccepts(Bundle, { layout: 'dir', files: [{ path: 'mcp.json', contentBase64: 'e30=' }] });
    expectAccepts(MsgappNumbers, {
      numbers: [],
      hasWorkspace: false,
      hasSales: false,
      salesUrl: null,
      cambiados: 0,
    });
    expectAccepts(Compartida, { compartida: true, slug: 'abc' });
    expectAccepts(Archivo, {
      id: 'f1',
      nombre: 'a.txt',
      mimeType: 'text/plain',
      size: 1,
      url: 'https://x/f1',
    });
  });

  it('rewind and versions (our extension)', () => {
    const version = {
      id: 'v1',
      desde: 2,
      mensajes: [{ role: 'user', content: 'hi', at: '2026-12-02T10:00:00Z' }],
      creada: '2026-12-02T10:01:00Z',
    };
    expectAccepts(ConversationRewound, { id: 'c1', hasta: 2, version });
    expectAccepts(ConversationVersions, { versiones: [version] });
    expectRejects(ConversationVersions, { versiones: [{ ...version, desde: -1 }] }, 'versiones.0.desde');
    expectRejects(ConversationRewound, { id: 'c1', hasta: 2 }, 'version');
  });

  it('approval rules (our extension)', () => {
    const rule = {
      id: 'r1',
      efecto: 'permitir',
      herramienta: 'edit',
      carpeta: null,
      creada: '2026-12-02T10:00:00Z',
    };
    expectAccepts(ApprovalRule, rule);
    expectAccepts(ApprovalRules, {
      reglas: [rule, { ...rule, id: 'r2', efecto: 'denegar', carpeta: 'notes' }],
    });
    expectRejects(ApprovalRule, { ...rule, efecto: 'allow' }, 'efecto');
    expectAccepts(ApprovalRuleRemoved, { id: 'r1', borrada: true });
    expectRejects(ApprovalRuleRemoved, { id: 'r1', borrada: false }, 'borrada');
  });

  it('model providers and agent programs (our extension): keys only masked', () => {
    const provider = {
      id: 'p1',
      tipo: 'anthropic',
      nombre: 'Anthropic',
      origen: 'ajustes',
      urlBase: null,
      clave: 'sk-…abcd',
      modelos: [{ id: 'claude-test', label: 'Claude Test' }],
      error: null,
    };
    expectAccepts(ModelProvider, provider);
    expectAccepts(ModelProviders, {
      proveedores: [provider, { ...provider, id: 'p2', tipo: 'ollama', clave: null }],
    });
    expectRejects(ModelProvider, { ...provider, origen: 'elsewhere' }, 'origen');
    expectRejects(ModelProvider, { ...provider, modelos: [{ id: 'm' }] }, 'modelos.0.label');
    expectAccepts(ProviderRemoved, { borrado: true });
    expectRejects(ProviderRemoved, { borrado: false }, 'borrado');
    const program = {
      id: 'goose',
      nombre: 'goose',
      comando: ['/usr/bin/goose', 'acp'],
      encontrado: true,
      instalar: 'see goose docs',
      necesita: 'A provider set up with goose configure.',
      motor: 'engine-c',
    };
    expectAccepts(AgentPrograms, {
      programas: [program, { ...program, id: 'codex', encontrado: false, motor: null }],
    });
    expectRejects(AgentPrograms, { programas: [{ ...program, motor: 'engine-e' }] }, 'programas.0.motor');
  });

  it('agent making and deleting (our extension)', () => {
    expectAccepts(StartingPoints, {
      inicios: [{ id: 'writer', nombre: 'Writer', descripcion: 'Drafts text.', skills: ['meeting-notes'] }],
    });
    expectRejects(
      StartingPoints,
      { inicios: [{ id: 'writer', nombre: 'Writer', descripcion: 'x' }] },
      'inicios.0.skills',
    );
    expectAccepts(Agente, {
      id: 'a1',
      nombre: 'Writer',
      origen: 'gs',
      protocolo: 'acp',
      conexion: null,
      necesitaToken: true,
    });
    expectRejects(
      Agente,
      { id: 'a1', nombre: 'W', origen: 'elsewhere', protocolo: 'acp', conexion: null, necesitaToken: true },
      'origen',
    );
    expectAccepts(AgentDeleted, { borrado: true });
    expectRejects(AgentDeleted, { borrado: false }, 'borrado');
  });

  it('every JSON response of the route table has been exercised', () => {
    const missing = routes.flatMap((r) =>
      Object.entries(r.responses).flatMap(([status, spec]) =>
        spec.body instanceof z.ZodType && !covered.has(spec.body) ? [`${r.operationId} ${status}`] : [],
      ),
    );
    expect(missing).toEqual([]);
  });
});

describe('describeZodError', () => {
  it('names every failing field with its path, picking the meant branch of a union', () => {
    const result = McpPutResult.safeParse({
      servers: [
        { name: 'gh', url: 'http://gh.example' },
        { name: 'fs', command: 7 },
      ],
      reiniciado: 'no',
    });
    expect(result.success).toBe(false);
    const message = describeZodError(result.error!);
    expect(message).toContain('servers.0.url: url must be an https URL');
    expect(message).toContain('servers.1.command: command must be a string');
    expect(message).toContain('reiniciado: ');
  });
});
