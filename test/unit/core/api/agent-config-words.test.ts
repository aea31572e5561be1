import { describe, expect, it } from 'vitest';
import {
  agentConfigFromWire,
  agentConfigPatchToWire,
  appliedBundleFromWire,
  installedSkillFromWire,
  msgappNumbersFromWire,
  restartFromWire,
  savedAgentConfigFromWire,
  savedMcpServersFromWire,
  writtenFileFromWire,
} from '../../../../src/core/api/agent-config-words';
import {
  AgentConfig,
  AgentConfigPatch,
  BundlePostResult,
  FilePutResult,
  McpPutResult,
  MsgappNumbers,
  PatchAgentBody,
  RestartResult,
  SkillPutResult,
} from '../../../../src/shared/api';

/** Every wire word of the agent's configuration, as the spec spells it (api-v2.md), parsed as the client parses it. */
const wireConfig = AgentConfig.parse({
  id: 'a1',
  name: 'Helper',
  engine: 'house-lite',
  channels: { workchat: true, web: false },
  tools: {
    gs: { web_search: true },
    extensions: { developer: false },
    canales: { programado: { send_file: false }, chat: { send_file: true } },
  },
  about: { engines: [], tools: { send_file: { label: 'Send you a file', description: 'One line.' } } },
  aplicado: ['prompt', 'tools.canales'],
  nota: 'Applies from the next turn.',
  aNewerServersField: 1,
});

describe('the agent configuration read from the wire', () => {
  it('names the tools per channel `channels`, keeps our fields and drops the save words and unknown extras', () => {
    const config = agentConfigFromWire(wireConfig);
    expect(config).toEqual({
      id: 'a1',
      name: 'Helper',
      engine: 'house-lite',
      channels: { workchat: true, web: false },
      tools: {
        gs: { web_search: true },
        extensions: { developer: false },
        channels: { programado: { send_file: false }, chat: { send_file: true } },
      },
      about: { engines: [], tools: { send_file: { label: 'Send you a file', description: 'One line.' } } },
    });
    expect(JSON.stringify(config)).not.toMatch(/canales|aplicado|nota|aNewerServersField/);
  });

  it('a save answers with what the server applied and its note, in our words', () => {
    const saved = savedAgentConfigFromWire(wireConfig);
    expect(saved.applied).toEqual(['prompt', 'tools.canales']);
    expect(saved.note).toBe('Applies from the next turn.');
    expect(saved.tools?.channels?.['programado']).toEqual({ send_file: false });
    const bare = savedAgentConfigFromWire(AgentConfig.parse({ id: 'a1', name: 'Helper' }));
    expect(bare).toEqual({ id: 'a1', name: 'Helper' });
  });

  it('an `about` that does not read as ours is left out (a spec-only server may send anything)', () => {
    expect(agentConfigFromWire(AgentConfig.parse({ id: 'a1', about: 'words' }))).toEqual({ id: 'a1' });
  });
});

describe('a change of the configuration written to the wire', () => {
  it('`tools.channels` goes out as `canales`, and the body passes the wire schema unchanged', () => {
    const patch = AgentConfigPatch.parse({
      name: 'Renamed',
      tools: { gs: { web_search: false }, channels: { prueba: { send_file: false } } },
    });
    const wire = agentConfigPatchToWire(patch);
    expect(wire).toEqual({
      name: 'Renamed',
      tools: { gs: { web_search: false }, canales: { prueba: { send_file: false } } },
    });
    expect(PatchAgentBody.parse(wire)).toEqual(wire);
  });

  it('a change without tools is the same body on the wire', () => {
    expect(agentConfigPatchToWire({ prompt: 'Be brief.', starters: ['Hi'] })).toEqual({
      prompt: 'Be brief.',
      starters: ['Hi'],
    });
  });

  it('our patch keeps the wire checks, with our field names in the problem', () => {
    const bad = AgentConfigPatch.safeParse({ tools: { channels: { sms: { web: true } } } });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path.join('.')).toMatch(/^tools\.channels/);
    const long = AgentConfigPatch.safeParse({ name: 'n'.repeat(65) });
    expect(long.error?.issues[0]?.message).toMatch(/name must be at most/);
  });
});

describe('the answers of the other agent-config calls', () => {
  it('MCP save, skill install, file write, bundle import, restart and msgapp1 numbers', () => {
    const servers = [{ name: 'docs', type: 'http' as const, url: 'https://docs.example/mcp' }];
    expect(savedMcpServersFromWire(McpPutResult.parse({ servers, reiniciado: true }))).toEqual({
      servers,
      restarted: true,
    });
    expect(
      installedSkillFromWire(
        SkillPutResult.parse({ slug: 'tidy', files: ['SKILL.md'], bytes: 12, nota: 'n' }),
      ),
    ).toEqual({ slug: 'tidy', files: ['SKILL.md'], bytes: 12, note: 'n' });
    expect(writtenFileFromWire(FilePutResult.parse({ path: 'a.md', bytes: 3, en: '/w/a.md' }))).toEqual({
      path: 'a.md',
      bytes: 3,
      location: '/w/a.md',
    });
    expect(
      appliedBundleFromWire(
        BundlePostResult.parse({ aplicado: ['instructions.md'], ignorado: ['x.bin'], nota: 'ok' }),
      ),
    ).toEqual({ applied: ['instructions.md'], ignored: ['x.bin'], note: 'ok' });
    expect(restartFromWire(RestartResult.parse({ reiniciado: false, sandboxId: 's1' }))).toEqual({
      restarted: false,
      sandboxId: 's1',
    });
    const numbers = MsgappNumbers.parse({
      numbers: [{ id: 'n1', label: '+1 555', mine: true, takenByOther: false, extra: 1 }],
      hasWorkspace: true,
      hasSales: false,
      salesUrl: null,
      cambiados: 2,
    });
    expect(msgappNumbersFromWire(numbers)).toEqual({
      numbers: [{ id: 'n1', label: '+1 555', mine: true, takenByOther: false }],
      hasWorkspace: true,
      hasSales: false,
      salesUrl: null,
      changed: 2,
    });
  });
});
