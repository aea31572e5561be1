import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pLimit from 'p-limit';
import { existsDir, findExecutable } from './executables';
import { runProgram } from './run-program';
import { isRecognizerReady, readWavFormat } from './wav-header';

/**
 * `stt` key of the service config. Engines are tried in `engines` order; the first one set up answers.
 * Default order: Debian's pocketsphinx (offline), then an OpenAI-compatible endpoint when configured.
 */
export interface SttConfig {
  engines?: ('pocketsphinx' | 'openai')[];
  /** Audio cap of the local plan, bytes (default 25 MiB); over it the route answers 413. */
  maxBytes?: number;
  pocketsphinx?: {
    /** Default `pocketsphinx_continuous` (Debian's package). */
    command?: string;
    /** Default `/usr/share/pocketsphinx/model/en-us` (Debian's pocketsphinx-en-us). */
    modelDir?: string;
  };
  openai?: {
    /** e.g. `https://api.example.com/v1`; the request goes to `<baseUrl>/audio/transcriptions`. */
    baseUrl: string;
    /** Name of an environment variable holding the key (preferred over `apiKey` in the file). */
    apiKeyEnv?: string;
    apiKey?: string;
    /** Default `whisper-1`. */
    model?: string;
    language?: string;
  };
}

export const DEFAULT_STT_MAX_BYTES = 25 * 1024 * 1024;
const RUN_TIMEOUT_MS = 120_000;

/**
 * Why a transcription failed: no engine set up (`unavailable`), audio that cannot be read (`invalid_audio`), or
 * an engine that failed (`failed`). The route maps each to its status and the wire's code.
 */
export type TranscriptionErrorCode = 'unavailable' | 'invalid_audio' | 'failed';

/** A failed transcription, with a plain sentence for a person. */
export class TranscriptionError extends Error {
  constructor(
    readonly code: TranscriptionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'TranscriptionError';
  }
}

interface SttEngine {
  name: string;
  /** null when usable, else why not (a plain sentence). */
  missing(): string | null;
  transcribe(audio: Uint8Array, contentType: string): Promise<string>;
}

function pocketsphinxEngine(config: SttConfig['pocketsphinx'] = {}): SttEngine {
  const command = config.command ?? 'pocketsphinx_continuous';
  const modelDir = config.modelDir ?? '/usr/share/pocketsphinx/model/en-us';
  // One recognition at a time: it is CPU-bound and the machine is small.
  const queue = pLimit(1);
  return {
    name: 'pocketsphinx',
    missing() {
      if (!findExecutable(command))
        return `${command} is not installed (Debian: apt-get install pocketsphinx).`;
      if (!existsDir(path.join(modelDir, 'en-us'))) {
        return `the English model is missing in ${modelDir} (Debian: apt-get install pocketsphinx-en-us).`;
      }
      return null;
    },
    transcribe: (audio, contentType) =>
      queue(async () => {
        const dir = await mkdtemp(path.join(tmpdir(), 'agentdesk-stt-'));
        try {
          const input = path.join(dir, 'input');
          await writeFile(input, audio);
          const wav = isRecognizerReady(readWavFormat(audio))
            ? input
            : await toRecognizerWav(input, dir, contentType);
          const args = ['-infile', wav, '-logfn', '/dev/null'];
          const hmm = path.join(modelDir, 'en-us');
          const lm = path.join(modelDir, 'en-us.lm.bin');
          const dict = path.join(modelDir, 'cmudict-en-us.dict');
          args.push('-hmm', hmm, '-lm', lm, '-dict', dict);
          const { stdout } = await runProgram(findExecutable(command) as string, args, RUN_TIMEOUT_MS).catch(
            (err: Error) => {
              throw new TranscriptionError('failed', err.message);
            },
          );
          return stdout
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean)
            .join(' ');
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }),
  };
}

/** ffmpeg turns any audio it understands into 16 kHz mono 16-bit WAV, what pocketsphinx reads. */
async function toRecognizerWav(input: string, dir: string, contentType: string): Promise<string> {
  const ffmpeg = findExecutable('ffmpeg');
  if (!ffmpeg) {
    throw new TranscriptionError(
      'unavailable',
      `Audio of type ${contentType} must be converted to 16 kHz mono WAV, and ffmpeg is not installed (Debian: apt-get install ffmpeg).`,
    );
  }
  const output = path.join(dir, 'speech.wav');
  await runProgram(
    ffmpeg,
    [
      '-nostdin',
      '-loglevel',
      'error',
      '-y',
      '-i',
      input,
      '-ar',
      '16000',
      '-ac',
      '1',
      '-sample_fmt',
      's16',
      '-f',
      'wav',
      output,
    ],
    RUN_TIMEOUT_MS,
  ).catch((err: Error) => {
    throw new TranscriptionError(
      'invalid_audio',
      `The audio could not be read as ${contentType}: ${err.message}`,
    );
  });
  return output;
}

function openAiEngine(config: SttConfig['openai']): SttEngine {
  const apiKey = () => (config?.apiKeyEnv ? process.env[config.apiKeyEnv] : undefined) ?? config?.apiKey;
  return {
    name: 'openai',
    missing() {
      if (!config?.baseUrl)
        return 'no OpenAI-compatible endpoint is configured (config "stt.openai.baseUrl").';
      return null;
    },
    async transcribe(audio, contentType) {
      const form = new FormData();
      const ext = contentType.split('/')[1]?.split(';')[0]?.replace(/^x-/, '') || 'bin';
      form.append('file', new Blob([audio], { type: contentType }), `audio.${ext}`);
      form.append('model', config?.model ?? 'whisper-1');
      if (config?.language) form.append('language', config.language);
      const key = apiKey();
      let response: Response;
      try {
        response = await fetch(`${config!.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`, {
          method: 'POST',
          headers: key ? { Authorization: `Bearer ${key}` } : {},
          body: form,
          signal: AbortSignal.timeout(RUN_TIMEOUT_MS),
        });
      } catch (err) {
        throw new TranscriptionError(
          'failed',
          `The transcription endpoint did not answer: ${(err as Error).message}`,
        );
      }
      if (!response.ok) {
        throw new TranscriptionError('failed', `The transcription endpoint answered ${response.status}.`);
      }
      const body = (await response.json().catch(() => null)) as { text?: unknown } | null;
      if (typeof body?.text !== 'string') {
        throw new TranscriptionError('failed', 'The transcription endpoint answered without "text".');
      }
      return body.text.trim();
    },
  };
}

export interface Transcriber {
  maxBytes: number;
  /** The engine that would answer now, or null with every reason why none can. */
  pick(): { engine: string } | { engine: null; reasons: string[] };
  transcribe(audio: Uint8Array, contentType: string): Promise<string>;
}

export function createTranscriber(config: SttConfig = {}): Transcriber {
  const all: Record<string, SttEngine> = {
    pocketsphinx: pocketsphinxEngine(config.pocketsphinx),
    openai: openAiEngine(config.openai),
  };
  const order = (config.engines ?? ['pocketsphinx', 'openai'])
    .map((name) => all[name])
    .filter((e) => e !== undefined);

  function choose(): { engine: SttEngine } | { engine: null; reasons: string[] } {
    const reasons: string[] = [];
    for (const engine of order) {
      const why = engine.missing();
      if (why === null) return { engine };
      reasons.push(`${engine.name}: ${why}`);
    }
    return { engine: null, reasons };
  }

  return {
    maxBytes: config.maxBytes ?? DEFAULT_STT_MAX_BYTES,
    pick() {
      const chosen = choose();
      return chosen.engine ? { engine: chosen.engine.name } : chosen;
    },
    async transcribe(audio, contentType) {
      const chosen = choose();
      if (!chosen.engine) {
        throw new TranscriptionError(
          'unavailable',
          `No transcription engine is set up on this service. ${chosen.reasons.join(' ') || 'None is enabled in config "stt.engines".'}`,
        );
      }
      return chosen.engine.transcribe(audio, contentType);
    },
  };
}
