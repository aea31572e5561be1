import { describe, expect, it } from 'vitest';
import {
  AuthorizeQuery,
  CreateAgentBody,
  BundleBody,
  DevicesBody,
  DevicesDeleteBody,
  FileUploadQuery,
  McpPutBody,
  ModelBody,
  MsgappPutBody,
  PatchAgentBody,
  PatchConversationBody,
  PermissionBody,
  PostMessageBody,
  RevokeRequest,
  ScheduleBody,
  SkillParams,
  SkillPutBody,
  TokenRequest,
  TryBody,
  WorkspaceFileParams,
  WorkspacePathParams,
  parseScopes,
  routes,
} from '../../../../src/shared/api';
import { ForkConversationBody } from '../../../../src/shared/api/routes/extensions';
import { RewindConversationBody } from '../../../../src/shared/api/routes/conversation-versions';
import { AddApprovalRuleBody } from '../../../../src/shared/api/routes/approval-rules';
import { AddModelProviderBody, SetAgentProgramBody } from '../../../../src/shared/api/routes/model-providers';
import { covered, expectAccepts, expectRejects } from './schema-helpers';

const remote = (name: string) => ({ name, url: `https://${name}.example.com/mcp` });

describe('request bodies: spec shapes pass, one bad variant per rule fails naming the field', () => {
  it('PATCH agent body: name 64, prompt 20000, starters 5 x 80, enums, tools', () => {
    const body = {
      name: 'n'.repeat(64),
      engine: 'engine-c',
      model: 'm-small',
      prompt: 'p'.repeat(20000),
      promptMode: 'replace',
      webSearch: true,
      channels: { workchat: true, web: false, msgapp1: true, msgapp2: false },
      starters: Array.from({ length: 5 }, () => 's'.repeat(80)),
      tools: {
        gs: { web_search: false },
        extensions: { developer: true },
        canales: { chat: { shell: false }, programado: { web_search: true }, prueba: {} },
      },
    };
    expectAccepts(PatchAgentBody, body);
    expectAccepts(PatchAgentBody, {});
    expect(expectRejects(PatchAgentBody, { name: 'n'.repeat(65) }, 'name')).toContain('64');
    expect(expectRejects(PatchAgentBody, { prompt: 'p'.repeat(20001) }, 'prompt')).toContain('20000');
    expectRejects(PatchAgentBody, { starters: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'starters');
    expectRejects(PatchAgentBody, { starters: ['ok', 's'.repeat(81)] }, 'starters.1');
    expectRejects(PatchAgentBody, { promptMode: 'prepend' }, 'promptMode');
    expectRejects(PatchAgentBody, { engine: 'engine-x' }, 'engine');
    expectRejects(PatchAgentBody, { model: '' }, 'model');
    expectRejects(PatchAgentBody, { channels: { web: 'yes' } }, 'channels.web');
    expectRejects(PatchAgentBody, { tools: { gs: { web: 'off' } } }, 'tools.gs.web');
    expect(
      expectRejects(PatchAgentBody, { tools: { canales: { sms: { web: true } } } }, 'tools.canales'),
    ).toContain('sms');
  });

  it('workspace file path: relative, no ..', () => {
    expectAccepts(WorkspacePathParams, { id: 'a', path: '' });
    expectAccepts(WorkspaceFileParams, { id: 'a', path: 'knowledge/notes.md' });
    expectRejects(WorkspaceFileParams, { id: 'a', path: '../secrets' }, 'path');
    expectRejects(WorkspaceFileParams, { id: 'a', path: 'a/../../b' }, 'path');
    expectRejects(WorkspaceFileParams, { id: 'a', path: '/etc/passwd' }, 'path');
    expectRejects(WorkspaceFileParams, { id: 'a', path: '' }, 'path');
  });

  it('skill slug and PUT skill body', () => {
    expectAccepts(SkillParams, { id: 'a', slug: 'pdf-tools' });
    expectAccepts(SkillParams, { id: 'a', slug: 'a'.repeat(64) });
    expectRejects(SkillParams, { id: 'a', slug: 'a'.repeat(65) }, 'slug');
    expectRejects(SkillParams, { id: 'a', slug: 'PDF_tools' }, 'slug');
    expectRejects(SkillParams, { id: 'a', slug: '-pdf' }, 'slug');
    const body = {
      markdown: '---\nname: pdf\ndescription: Read PDFs\n---\nUse it.',
      fromCatalog: false,
      assets: [{ name: 'scripts/extract.py', contentBase64: 'cHJpbnQoMSk=' }],
    };
    expectAccepts(SkillPutBody, body);
    expectAccepts(SkillPutBody, { fromCatalog: true });
    expectRejects(SkillPutBody, { assets: [] }, 'markdown');
    expectRejects(
      SkillPutBody,
      { ...body, assets: [{ name: '../x', contentBase64: 'aGk=' }] },
      'assets.0.name',
    );
    expectRejects(SkillPutBody, { ...body, assets: [{ name: 'x.py' }] }, 'assets.0.contentBase64');
  });

  it('PUT mcp body: both shapes, https only, name pattern, max 20', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => remote(`s${i}`));
    expectAccepts(McpPutBody, { servers: twenty });
    expectAccepts(McpPutBody, {
      servers: [remote('gh'), { name: 'fs', command: 'mcp-fs', args: [], env: {} }],
    });
    expectRejects(McpPutBody, { servers: [...twenty, remote('s20')] }, 'servers');
    expectRejects(
      McpPutBody,
      { servers: [remote('ok'), { name: 'gh', url: 'http://gh.example' }] },
      'servers.1.url',
    );
    expectRejects(
      McpPutBody,
      { servers: [{ name: 'Bad Name', url: 'https://x.example' }] },
      'servers.0.name',
    );
    expectRejects(McpPutBody, { servers: [{ name: 'fs' }] }, 'servers.0.url');
    expectRejects(McpPutBody, {}, 'servers');
  });

  it('POST try body: text, session max 32 [a-zA-Z0-9_-], as only msgapp1', () => {
    expect(expectAccepts(TryBody, { text: 'hola' })).toEqual({ text: 'hola', session: 'default' });
    expectAccepts(TryBody, { text: 'hola', session: 'A_b-9'.padEnd(32, 'x'), reset: true });
    expectAccepts(TryBody, { text: 'hola', session: '34600111222', as: 'msgapp1' });
    expectRejects(TryBody, { session: 's' }, 'text');
    expectRejects(TryBody, { text: 'x', session: 's'.repeat(33) }, 'session');
    expectRejects(TryBody, { text: 'x', session: 'a b' }, 'session');
    expectRejects(TryBody, { text: 'x', as: 'msgapp2' }, 'as');
    expectRejects(TryBody, { text: 'x', as: 'msgapp1', session: 'default' }, 'session');
    expectRejects(TryBody, { text: 'x', reset: 'yes' }, 'reset');
  });

  it('bundle and msgapp1 bodies', () => {
    expectAccepts(BundleBody, { layout: 'dir', files: [{ path: 'instructions.md', contentBase64: 'aGk=' }] });
    expectRejects(BundleBody, { layout: 'dir' }, 'files');
    expectAccepts(MsgappPutBody, { numbers: ['n1', 'n2'] });
    expectRejects(MsgappPutBody, { numbers: 'n1' }, 'numbers');
    expectRejects(MsgappPutBody, {}, 'numbers');
  });

  it('PATCH conversation body', () => {
    expectAccepts(PatchConversationBody, { title: 'Plan de viaje' });
    expectRejects(PatchConversationBody, {}, 'title');
  });

  it('POST messages body: content required, uuid turnId, permisos, max 8 images', () => {
    const image = { name: 'a.png', mimeType: 'image/png', data: 'iVBORw0KGgo=', uri: 'file:///a.png' };
    const body = {
      content: 'Hola',
      turnId: '3b241101-e2bb-4255-8caf-4136c566a962',
      primerTurno: true,
      permisos: 'preguntar',
      images: Array.from({ length: 8 }, () => image),
    };
    expectAccepts(PostMessageBody, body);
    expect(expectAccepts(PostMessageBody, { content: 'Hola' })).toEqual({
      content: 'Hola',
      permisos: 'auto',
    });
    expectRejects(PostMessageBody, { turnId: body.turnId }, 'content');
    expect(expectRejects(PostMessageBody, { ...body, images: [...body.images, image] }, 'images')).toContain(
      '8',
    );
    expectRejects(PostMessageBody, { content: 'x', images: [{ data: 'aGk=' }] }, 'images.0.mimeType');
    expectRejects(PostMessageBody, { content: 'x', images: [{ mimeType: 'image/png' }] }, 'images.0.data');
    expectRejects(
      PostMessageBody,
      { content: 'x', images: [{ mimeType: 'a/b', data: '***' }] },
      'images.0.data',
    );
    expectRejects(PostMessageBody, { content: 'x', turnId: 'not-a-uuid' }, 'turnId');
    expectRejects(PostMessageBody, { content: 'x', permisos: 'nunca' }, 'permisos');
  });

  it('permission, model and schedule bodies', () => {
    expectAccepts(PermissionBody, { id: 'p1', optionId: 'allow_once' });
    expectRejects(PermissionBody, { id: 'p1' }, 'optionId');
    expectRejects(PermissionBody, { optionId: 'x' }, 'id');
    expectAccepts(ModelBody, { model: 'm-large' });
    expectRejects(ModelBody, { model: '' }, 'model');
    expectRejects(ModelBody, {}, 'model');
    expectAccepts(ScheduleBody, { prompt: 'Resume el día', inMinutes: 30 });
    expectAccepts(ScheduleBody, {
      prompt: 'Resume',
      dueAt: '2025-05-02T08:00:00Z',
      repeatMin: 1440,
      until: '2025-06-01T00:00:00Z',
    });
    expectAccepts(ScheduleBody, { prompt: 'x', inMinutes: 5, repeatMin: null, until: null });
    expectRejects(ScheduleBody, { prompt: 'x' }, 'inMinutes');
    expectRejects(ScheduleBody, { inMinutes: 5 }, 'prompt');
    expectRejects(ScheduleBody, { prompt: 'x', dueAt: 'mañana' }, 'dueAt');
    expectRejects(ScheduleBody, { prompt: 'x', inMinutes: -1 }, 'inMinutes');
  });

  it('files query and devices bodies', () => {
    expectAccepts(FileUploadQuery, { nombre: 'informe.pdf' });
    expectRejects(FileUploadQuery, {}, 'nombre');
    expectAccepts(DevicesBody, { token: 'apns-token', plataforma: 'ios', entorno: 'sandbox' });
    expectAccepts(DevicesBody, { token: 'fcm-token', plataforma: 'android' });
    expectRejects(DevicesBody, { token: 'x', plataforma: 'web' }, 'plataforma');
    expectRejects(DevicesBody, { token: 'x', plataforma: 'ios', entorno: 'staging' }, 'entorno');
    expectRejects(DevicesBody, { plataforma: 'ios' }, 'token');
    expectAccepts(DevicesDeleteBody, { token: 'apns-token' });
    expectRejects(DevicesDeleteBody, {}, 'token');
  });

  it('OAuth authorize query, token and revoke forms', () => {
    const query = {
      response_type: 'code',
      client_id: 'agentdesk-desktop',
      redirect_uri: 'http://127.0.0.1:53682/callback',
      scope: 'profile agents:read',
      state: 's1',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    };
    expectAccepts(AuthorizeQuery, query);
    expectRejects(AuthorizeQuery, { ...query, code_challenge_method: 'plain' }, 'code_challenge_method');
    expectRejects(AuthorizeQuery, { ...query, response_type: 'token' }, 'response_type');
    expectAccepts(TokenRequest, {
      grant_type: 'authorization_code',
      client_id: 'agentdesk-desktop',
      code: 'c',
      redirect_uri: query.redirect_uri,
      code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk',
    });
    expectAccepts(TokenRequest, {
      grant_type: 'refresh_token',
      client_id: 'c',
      client_secret: 's',
      refresh_token: 'r',
    });
    expectRejects(TokenRequest, { grant_type: 'password', client_id: 'c' }, 'grant_type');
    expectRejects(TokenRequest, { grant_type: 'refresh_token', client_id: 'c' }, 'refresh_token');
    expectRejects(
      TokenRequest,
      {
        grant_type: 'authorization_code',
        client_id: 'c',
        code: 'c',
        redirect_uri: 'r',
        code_verifier: 'short',
      },
      'code_verifier',
    );
    expectAccepts(RevokeRequest, { token: 't', client_id: 'c' });
    expectRejects(RevokeRequest, { token: 't' }, 'client_id');
    expect(parseScopes('profile agents:read bogus agents:read')).toEqual(['profile', 'agents:read']);
  });

  it('POST agent (our extension): a name of 1 to 64 after trimming, an optional starting point, nothing else', () => {
    expectAccepts(CreateAgentBody, { nombre: 'Writer', inicio: 'writer' });
    expect(expectAccepts(CreateAgentBody, { nombre: '  Coder  ' })).toEqual({ nombre: 'Coder' });
    expectRejects(CreateAgentBody, { nombre: '   ' }, 'nombre');
    expectRejects(CreateAgentBody, { nombre: 'n'.repeat(65) }, 'nombre');
    expectRejects(CreateAgentBody, { nombre: 'Ok', inicio: '' }, 'inicio');
    // An unknown key (the engine is the service's choice) is refused outright.
    expect(CreateAgentBody.safeParse({ nombre: 'Ok', engine: 'engine-c' }).success).toBe(false);
  });

  it('fork (our extension): the first hasta messages, or every message through a turn, never both', () => {
    expectAccepts(ForkConversationBody, { hasta: 2 });
    expectAccepts(ForkConversationBody, { turnId: 't1' });
    expectRejects(ForkConversationBody, { hasta: 0 }, 'hasta');
    expectRejects(ForkConversationBody, { turnId: '' }, 'turnId');
    expect(ForkConversationBody.safeParse({ hasta: 1, turnId: 't1' }).success).toBe(false);
    expect(ForkConversationBody.safeParse({}).success).toBe(false);
  });

  it('rewind (our extension): keep the first hasta messages, from 0', () => {
    expectAccepts(RewindConversationBody, { hasta: 0 });
    expectAccepts(RewindConversationBody, { hasta: 4 });
    expectRejects(RewindConversationBody, { hasta: -1 }, 'hasta');
    expectRejects(RewindConversationBody, { hasta: 1.5 }, 'hasta');
    expect(RewindConversationBody.safeParse({ hasta: 1, turnId: 't' }).success).toBe(false);
  });

  it('approval rule (our extension): an effect, a tool, an optional folder', () => {
    expectAccepts(AddApprovalRuleBody, { efecto: 'permitir', herramienta: 'edit', carpeta: 'notes' });
    expectAccepts(AddApprovalRuleBody, { efecto: 'denegar', herramienta: 'execute', carpeta: null });
    expectRejects(AddApprovalRuleBody, { efecto: 'quizá', herramienta: 'edit' }, 'efecto');
    expectRejects(AddApprovalRuleBody, { efecto: 'permitir', herramienta: '  ' }, 'herramienta');
    expectRejects(AddApprovalRuleBody, { efecto: 'permitir', herramienta: 'edit', carpeta: '' }, 'carpeta');
  });

  it('model provider (our extension): a kind, a key and a base URL where it needs them', () => {
    expectAccepts(AddModelProviderBody, { tipo: 'anthropic', clave: 'test-key' });
    expectAccepts(AddModelProviderBody, { tipo: 'ollama' });
    expectAccepts(AddModelProviderBody, {
      tipo: 'openai-compatible',
      clave: 'k',
      urlBase: 'http://127.0.0.1:1234/v1',
      nombre: 'LM Studio',
    });
    expectRejects(AddModelProviderBody, { tipo: 'bedrock', clave: 'k' }, 'tipo');
    expectRejects(AddModelProviderBody, { tipo: 'openai', clave: '   ' }, 'clave');
    expectRejects(AddModelProviderBody, { tipo: 'openai-compatible', urlBase: 'not a url' }, 'urlBase');
    expect(AddModelProviderBody.safeParse({ tipo: 'openai', clave: 'k', extra: 1 }).success).toBe(false);
  });

  it('agent program place (our extension): a known program, or a command with a name', () => {
    expectAccepts(SetAgentProgramBody, { programa: 'goose' });
    expectAccepts(SetAgentProgramBody, { comando: ['my-agent', '--acp'], nombre: 'Mine' });
    expectAccepts(SetAgentProgramBody, {});
    expectRejects(SetAgentProgramBody, { comando: [] }, 'comando');
    expectRejects(SetAgentProgramBody, { programa: '' }, 'programa');
  });

  it('every request body of the route table has been exercised', () => {
    const bodies = routes.flatMap((r) =>
      r.request.body?.schema ? [[r.operationId, r.request.body.schema]] : [],
    );
    expect(bodies.filter(([, schema]) => !covered.has(schema as never)).map(([id]) => id)).toEqual([]);
  });
});
