/**
 * What every bench reads from its command line and environment: its arguments, `--name value` options, and the
 * corpus (`CORPUS_DIR`, default `../shared/corpus` beside the repository).
 */
import path from 'node:path';

export const benchArgs = process.argv.slice(2);

/** The value after `--name`, or undefined when the option is absent. */
export const flagValue = (name: string): string | undefined => {
  const at = benchArgs.indexOf(name);
  return at >= 0 ? benchArgs[at + 1] : undefined;
};

export const corpusDir = process.env.CORPUS_DIR ?? path.resolve(import.meta.dirname, '../../shared/corpus');
