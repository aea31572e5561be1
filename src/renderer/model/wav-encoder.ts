/** The rate pocketsphinx and most recognisers read without converting. */
export const SPEECH_RATE = 16_000;

/**
 * Recorded samples (mono, -1..1, at `inputRate`) as a 16-bit PCM WAV file at `outputRate`.
 * Downsampling averages the input samples that fall in each output sample, which also filters.
 */
export function encodeWav(
  chunks: readonly Float32Array[],
  inputRate: number,
  outputRate = SPEECH_RATE,
): Uint8Array<ArrayBuffer> {
  const samples = resample(concat(chunks), inputRate, outputRate);
  const bytes = new Uint8Array(44 + samples.length * 2);
  const view = new DataView(bytes.buffer);
  const text = (offset: number, value: string) => {
    for (let i = 0; i < value.length; i++) view.setUint8(offset + i, value.charCodeAt(i));
  };
  text(0, 'RIFF');
  view.setUint32(4, 36 + samples.length * 2, true);
  text(8, 'WAVE');
  text(12, 'fmt ');
  view.setUint32(16, 16, true);
  view.setUint16(20, 1, true); // PCM
  view.setUint16(22, 1, true); // mono
  view.setUint32(24, outputRate, true);
  view.setUint32(28, outputRate * 2, true);
  view.setUint16(32, 2, true);
  view.setUint16(34, 16, true);
  text(36, 'data');
  view.setUint32(40, samples.length * 2, true);
  for (let i = 0; i < samples.length; i++) {
    const s = Math.max(-1, Math.min(1, samples[i]!));
    view.setInt16(44 + i * 2, s < 0 ? s * 0x8000 : s * 0x7fff, true);
  }
  return bytes;
}

function concat(chunks: readonly Float32Array[]): Float32Array {
  const out = new Float32Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

export function resample(input: Float32Array, inputRate: number, outputRate: number): Float32Array {
  if (inputRate === outputRate) return input;
  const ratio = inputRate / outputRate;
  const out = new Float32Array(Math.floor(input.length / ratio));
  for (let i = 0; i < out.length; i++) {
    const from = Math.floor(i * ratio);
    const to = Math.max(from + 1, Math.floor((i + 1) * ratio));
    let sum = 0;
    for (let j = from; j < to && j < input.length; j++) sum += input[j]!;
    out[i] = sum / (to - from);
  }
  return out;
}

/** Loudness of a block, 0..1 (RMS scaled so speech fills most of the meter). */
export function level(block: Float32Array): number {
  let sum = 0;
  for (const s of block) sum += s * s;
  return Math.min(1, Math.sqrt(sum / Math.max(1, block.length)) * 4);
}
