/**
 * The labelled search queries: the corpus's `labels/queries.json` (set `shared`) and this folder's
 * `queries.json` (set `held-out`: queries written on documents no search rule was tuned on, same
 * format). A query whose target file is not in the corpus is left out; a negative query is kept.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface Target {
  file: string;
  pages: number[];
}
export interface LabelledQuery {
  id: string;
  query: string;
  kind: string;
  targets: Target[];
  set: 'shared' | 'held-out';
}

const read = (file: string, set: LabelledQuery['set']): LabelledQuery[] =>
  existsSync(file)
    ? (JSON.parse(readFileSync(file, 'utf8')) as { queries: Omit<LabelledQuery, 'set'>[] }).queries.map(
        (query) => ({ ...query, set }),
      )
    : [];

export function labelledQueries(corpus: string): LabelledQuery[] {
  if (!existsSync(join(corpus, 'labels/queries.json'))) return [];
  return [
    ...read(join(corpus, 'labels/queries.json'), 'shared'),
    ...read(join(import.meta.dirname, 'queries.json'), 'held-out'),
  ].filter((query) => query.targets.every((target) => existsSync(join(corpus, target.file))));
}
