import { describe, expect, it } from 'vitest';
import { aboutEngines } from '../../../../src/service/engine/engine-about';
import { aboutTools } from '../../../../src/service/agent-config/tools-about';

const named = (engines: Parameters<typeof aboutEngines>[0]) =>
  Object.fromEntries(aboutEngines(engines).map((e) => [e.id, e.name]));

describe('engines are named by what they run (our extension about.engines)', () => {
  it('says the demo agent, the model agent, and empty program places (not offered) where nothing is configured', () => {
    expect(named(undefined)).toEqual({
      'house-lite': 'Built-in lite assistant',
      'engine-b': 'Demo agent (offline, answers by rule)',
      'engine-c': 'Empty agent program place (first)',
      'engine-d': 'Empty agent program place (second)',
      'engine-e': 'AgentDesk agent, on your models',
    });
    const about = aboutEngines(undefined);
    expect(about.filter((e) => e.offered === false).map((e) => e.id)).toEqual(['engine-c', 'engine-d']);
    expect(about.filter((e) => e.onYourModels).map((e) => e.id)).toEqual(['engine-e']);
  });

  it('knows the agent programs by their program, also behind npx; other commands are yours', () => {
    const names = named({
      'engine-b': { command: ['/usr/local/bin/goose', 'acp'] },
      'engine-c': { command: ['gemini', '--acp'] },
      'engine-d': { command: ['npx', '-y', '@zed-industries/claude-code-acp'] },
      'engine-e': { command: ['/opt/agents/my-agent', '--stdio'] },
    });
    expect(names['engine-b']).toBe('goose');
    expect(names['engine-c']).toBe('Gemini CLI');
    expect(names['engine-d']).toBe('Claude Code');
    expect(names['engine-e']).toBe('Your command (my-agent)');
    expect(
      named({
        'engine-c': { command: ['/usr/bin/codex-acp'] },
        'engine-d': { command: ['x'], name: 'Mine' },
      }),
    ).toMatchObject({ 'engine-c': 'Codex', 'engine-d': 'Mine' });
    // A command in the model agent's place is that command, not the model agent.
    expect(
      aboutEngines({ 'engine-e': { command: ['my-agent'] } }).find((e) => e.id === 'engine-e')?.onYourModels,
    ).toBeUndefined();
  });

  it('gives every engine its own description, and no internal words', () => {
    const about = aboutEngines({ 'engine-b': { command: ['goose', 'acp'] } });
    expect(new Set(about.map((e) => e.description)).size).toBe(about.length);
    for (const e of about)
      expect(`${e.name} ${e.description}`).not.toMatch(/machine|house|persona|ACP|engine-/i);
    expect(about.find((e) => e.id === 'house-lite')?.hasMachine).toBe(false);
  });
});

describe('tools are named for a person (our extension about.tools)', () => {
  it('gives each lent tool and built-in tool a label and one line', () => {
    const tools = aboutTools();
    expect(Object.keys(tools).sort()).toEqual(
      ['account_files', 'analyze', 'connectors', 'developer', 'send_file', 'todo'].sort(),
    );
    for (const [name, words] of Object.entries(tools)) {
      expect(words.label).not.toContain(name);
      expect(words.description).toMatch(/^The agent .+\.$/);
    }
  });
});
