import { encodeWav, level } from '../../model/wav-encoder';

export interface Recording {
  /** Resolves to a 16 kHz mono WAV of everything heard since start. */
  stop(): Promise<Uint8Array<ArrayBuffer>>;
  /** Stops without keeping anything. */
  discard(): void;
}

/**
 * Records the microphone as raw samples (Web Audio), reporting the level of each block. Raw PCM,
 * encoded here as WAV, is what every recogniser reads without conversion.
 * Rejects with the browser's DOMException (NotAllowedError, NotFoundError) when there is no microphone to use.
 */
export async function startRecording(onLevel: (level: number) => void): Promise<Recording> {
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: { channelCount: 1, echoCancellation: true, noiseSuppression: true },
  });
  const context = new AudioContext();
  const source = context.createMediaStreamSource(stream);
  // ScriptProcessorNode needs no module file, which the page's content security policy would have to allow.
  const processor = context.createScriptProcessor(4096, 1, 1);
  const chunks: Float32Array[] = [];
  processor.onaudioprocess = (event) => {
    const block = new Float32Array(event.inputBuffer.getChannelData(0));
    chunks.push(block);
    onLevel(level(block));
  };
  source.connect(processor);
  processor.connect(context.destination);

  const release = () => {
    processor.onaudioprocess = null;
    source.disconnect();
    processor.disconnect();
    for (const track of stream.getTracks()) track.stop();
    void context.close();
  };
  return {
    async stop() {
      const rate = context.sampleRate;
      release();
      return encodeWav(chunks, rate);
    },
    discard: release,
  };
}

/** The browser's refusal, in plain words. */
export function microphoneProblem(error: unknown): string {
  const name = error instanceof DOMException ? error.name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError')
    return 'AgentDesk may not use the microphone. Allow it in your system’s privacy settings (or this page’s site settings), then try again.';
  if (name === 'NotFoundError' || name === 'OverconstrainedError')
    return 'No microphone was found. Connect one and try again.';
  if (name === 'NotReadableError')
    return 'The microphone is busy in another app. Close it there and try again.';
  return 'The microphone could not be started.';
}
