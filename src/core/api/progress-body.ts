/** Called as an upload's bytes are handed to the connection: `sent` of `total`. */
export type UploadProgressListener = (sent: number, total: number) => void;

const SLICE = 64 * 1024;

/**
 * The bytes as a stream that reports each slice as fetch takes it. fetch pulls only as fast as the
 * connection drains, so the count follows what was really sent, not what was queued. A new stream is
 * made for each try, since a stream can be read only once.
 */
export function progressBody(
  data: Uint8Array,
  onProgress: UploadProgressListener,
): ReadableStream<Uint8Array> {
  let offset = 0;
  onProgress(0, data.byteLength);
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= data.byteLength) {
        controller.close();
        return;
      }
      const slice = data.subarray(offset, Math.min(offset + SLICE, data.byteLength));
      offset += slice.byteLength;
      controller.enqueue(slice);
      onProgress(offset, data.byteLength);
    },
  });
}
