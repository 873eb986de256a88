/**
 * The Node arguments a bench's child process runs TypeScript with: plain Node where it strips the types itself
 * (22.18 and later), as production runs the engine, else the tsx loader (whose module transforms and source maps
 * add ~0.8 s per thread and slow pdf.js down, so the figures of such a run are not comparable).
 */
export const childLoader = (): string[] =>
  (process.features as { typescript?: unknown }).typescript ? [] : ['--import', 'tsx'];
