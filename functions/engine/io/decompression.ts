/**
 * A synchronous `DecompressionStream` for pdf.js.
 *
 * pdf.js inflates every Flate stream (content streams, fonts, images) through the web
 * `DecompressionStream`. In Node that class runs zlib on the libuv thread pool and hands the output back
 * through web-stream chunks and promises: for the many small streams of a text-layer page the round trips
 * cost more than the inflating (measured: 6.5 s → 5.0 s for the 775 pages of a project manual, one
 * thread). This class keeps the same interface (a TransformStream from compressed to decompressed bytes,
 * erroring on corrupt input so pdf.js falls back to its own tolerant decoder) and inflates in one
 * synchronous zlib call when the input ends. The output is capped like every other inflate here.
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync, type ZlibOptions } from 'node:zlib';

type Format = 'deflate' | 'deflate-raw' | 'gzip' | 'brotli';

const decoders: Record<Format, (data: Buffer, options: ZlibOptions) => Buffer> = {
  deflate: inflateSync,
  'deflate-raw': inflateRawSync,
  gzip: gunzipSync,
  brotli: brotliDecompressSync,
};

export const createSyncDecompressionStream = (maxOutputBytes: number) =>
  class SyncDecompressionStream extends TransformStream<ArrayBufferView | ArrayBuffer, Uint8Array> {
    constructor(format: Format) {
      const decode = decoders[format];
      if (!decode) throw new TypeError(`Unsupported compression format: ${String(format)}`);
      const chunks: Buffer[] = [];
      super({
        transform(chunk) {
          const view = ArrayBuffer.isView(chunk)
            ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength)
            : Buffer.from(chunk);
          chunks.push(view);
        },
        flush(controller) {
          const [only] = chunks;
          const input = chunks.length === 1 && only ? only : Buffer.concat(chunks);
          const output = decode(input, { maxOutputLength: maxOutputBytes });
          controller.enqueue(new Uint8Array(output.buffer, output.byteOffset, output.byteLength));
        },
      });
    }
  };

/** Installs the synchronous stream as the global pdf.js uses (once per thread). */
export const installSyncDecompression = (maxOutputBytes: number): void => {
  const global = globalThis as { DecompressionStream?: unknown; __syncDecompression?: boolean };
  if (global.__syncDecompression) return;
  global.DecompressionStream = createSyncDecompressionStream(maxOutputBytes);
  global.__syncDecompression = true;
};
