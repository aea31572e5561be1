import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AgentProgram, SetAgentProgramBody } from '../../shared/api/routes/model-providers';
import { CONFIG_FILE_NAME } from '../config';
import { refuse, success, type Outcome } from '../outcome';
import { discoverPrograms, KNOWN_PROGRAMS, knownProgram } from './agent-programs';
import { PROGRAM_PLACES, type EngineCommand, type EnginesConfig, type ProgramPlace } from './types';

/**
 * The engines' commands as they are now (the object the engine host and `about` read): those of the config
 * (`engines` in config.json, `--engine-command`), and in the places `engine-c` and `engine-d` the agent
 * programs found on the PATH, in the order of KNOWN_PROGRAMS, where the config sets none. The service's owner
 * chooses a place's program from Settings; that choice is kept in config.json's `engines`, so it wins the same way.
 */
export function createEnginePlaces(deps: {
  dataDir: string;
  configured: EnginesConfig;
  env?: NodeJS.ProcessEnv;
}) {
  const configured: EnginesConfig = { ...deps.configured };
  const engines: EnginesConfig = {};
  let found = new Map<string, EngineCommand>();

  function fill(): void {
    for (const key of Object.keys(engines)) delete engines[key];
    Object.assign(engines, configured);
    const taken = new Set(PROGRAM_PLACES.map((place) => configured[place]?.program).filter(Boolean));
    const free = [...found.entries()].filter(([id]) => !taken.has(id));
    for (const place of PROGRAM_PLACES) {
      if (engines[place]?.command.length) continue;
      const next = free.shift();
      if (next) engines[place] = next[1];
    }
  }

  /** Looks on the PATH again (at start, and when the programs are listed). */
  function discover(): void {
    found = discoverPrograms(deps.env ?? process.env);
    fill();
  }
  discover();

  const placeOf = (command: EngineCommand | undefined, id: string): ProgramPlace | null =>
    PROGRAM_PLACES.find((place) => {
      const running = engines[place];
      return running && (running.program === id || (id === 'command' && running === command));
    }) ?? null;

  function programs(): AgentProgram[] {
    const known = KNOWN_PROGRAMS.map((program): AgentProgram => {
      const command = found.get(program.id);
      return {
        id: program.id,
        nombre: program.name,
        comando: command?.command ?? program.runs[0]!,
        encontrado: command !== undefined,
        instalar: program.install,
        necesita: program.needs,
        motor: placeOf(undefined, program.id),
      };
    });
    // Commands of the owner's (or the config's) that are no known program.
    const own = PROGRAM_PLACES.flatMap((place): AgentProgram[] => {
      const command = engines[place];
      if (!command?.command.length || (command.program && knownProgram(command.program))) return [];
      return [
        {
          id: 'command',
          nombre: command.name ?? command.command[0]!,
          comando: command.command,
          encontrado: true,
          instalar: '',
          necesita: '',
          motor: place,
        },
      ];
    });
    return [...known, ...own];
  }

  /** config.json's `engines` with this place's entry changed (or removed), written whole and renamed into place. */
  async function keep(place: ProgramPlace, entry: EngineCommand | undefined): Promise<void> {
    const file = join(deps.dataDir, CONFIG_FILE_NAME);
    let config: Record<string, unknown> = {};
    try {
      config = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const saved = { ...((config.engines ?? {}) as Record<string, unknown>) };
    if (entry) saved[place] = entry;
    else delete saved[place];
    config.engines = saved;
    await writeFile(`${file}.tmp`, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
    await rename(`${file}.tmp`, file);
  }

  return {
    engines,
    discover,
    /** Every known program, found or missing, and the owner's own commands, with the place each runs in. */
    list(): AgentProgram[] {
      discover();
      return programs();
    },
    /** Puts a known program or a command in a place (`{}` gives it back to what is found), kept in config.json. */
    async set(
      place: ProgramPlace,
      body: SetAgentProgramBody,
    ): Promise<Outcome<AgentProgram[], 'unknown' | 'incomplete'>> {
      let entry: EngineCommand | undefined;
      if (body.programa) {
        const program = knownProgram(body.programa);
        if (!program) return refuse('unknown', `There is no agent program called "${body.programa}".`);
        discover();
        entry = { command: found.get(program.id)?.command ?? program.runs[0]!, program: program.id };
      } else if (body.comando) {
        entry = { command: body.comando, ...(body.nombre ? { name: body.nombre } : {}) };
      } else if (body.nombre) {
        return refuse('incomplete', 'A command (comando) is needed with its name.');
      }
      await keep(place, entry);
      if (entry) configured[place] = entry;
      else delete configured[place];
      fill();
      return success(programs());
    },
  };
}

export type EnginePlaces = ReturnType<typeof createEnginePlaces>;
