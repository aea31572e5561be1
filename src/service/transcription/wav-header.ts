/** The format of a RIFF/WAVE file's `fmt ` chunk, or null when the bytes are not a WAV file. */
export interface WavFormat {
  audioFormat: number;
  channels: number;
  sampleRate: number;
  bitsPerSample: number;
}

export function readWavFormat(bytes: Uint8Array): WavFormat | null {
  if (bytes.byteLength < 12) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (tag(0) !== 'RIFF' || tag(8) !== 'WAVE') return null;
  let at = 12;
  while (at + 8 <= bytes.byteLength) {
    const size = view.getUint32(at + 4, true);
    if (tag(at) === 'fmt ' && at + 24 <= bytes.byteLength) {
      return {
        audioFormat: view.getUint16(at + 8, true),
        channels: view.getUint16(at + 10, true),
        sampleRate: view.getUint32(at + 12, true),
        bitsPerSample: view.getUint16(at + 22, true),
      };
    }
    at += 8 + size + (size % 2);
  }
  return null;
}

/** What pocketsphinx reads without conversion: 16 kHz, mono, 16-bit PCM. */
export function isRecognizerReady(format: WavFormat | null): boolean {
  return (
    format !== null &&
    format.audioFormat === 1 &&
    format.channels === 1 &&
    format.sampleRate === 16000 &&
    format.bitsPerSample === 16
  );
}
