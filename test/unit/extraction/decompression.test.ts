import { deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createSyncDecompressionStream } from '../../../functions/engine/io/decompression.ts';

/** Reads a stream the way pdf.js does: write the bytes, close, then iterate the readable side. */
const decompress = async (
  Stream: ReturnType<typeof createSyncDecompressionStream>,
  format: 'deflate' | 'deflate-raw' | 'gzip' | 'brotli',
  bytes: Uint8Array,
): Promise<Uint8Array> => {
  const { readable, writable } = new Stream(format);
  const writer = writable.getWriter();
  await writer.ready;
  writer
    .write(bytes)
    .then(() => writer.close())
    .catch(() => undefined);
  const chunks: Uint8Array[] = [];
  for await (const chunk of readable) chunks.push(chunk);
  return new Uint8Array(Buffer.concat(chunks));
};

describe('synchronous DecompressionStream', () => {
  const text = Buffer.from('BT /F1 12 Tf 72 720 Td (SECTION 09 29 00 - GYPSUM BOARD) Tj ET\n'.repeat(200));
  const Stream = createSyncDecompressionStream(1024 * 1024);

  it('inflates what the web DecompressionStream inflates, for each format', async () => {
    for (const [format, packed] of [
      ['deflate', deflateSync(text)],
      ['deflate-raw', deflateRawSync(text)],
      ['gzip', gzipSync(text)],
    ] as const) {
      const ours = await decompress(Stream, format, packed);
      const web = await decompress(DecompressionStream as never, format, packed);
      expect(Buffer.from(ours).equals(text)).toBe(true);
      expect(Buffer.from(web).equals(Buffer.from(ours))).toBe(true);
    }
  });

  it('errors on corrupt input, so pdf.js falls back to its own tolerant decoder', async () => {
    const corrupt = Buffer.from(deflateSync(text));
    corrupt.fill(0xff, 10, 40);
    await expect(decompress(Stream, 'deflate', corrupt)).rejects.toThrow();
  });

  it('errors past its output cap instead of inflating a bomb', async () => {
    const small = createSyncDecompressionStream(1000);
    await expect(decompress(small, 'deflate', deflateSync(Buffer.alloc(100_000)))).rejects.toThrow();
  });

  it('refuses an unknown format like the web class', () => {
    expect(() => new Stream('lzma' as never)).toThrow(TypeError);
  });
});
