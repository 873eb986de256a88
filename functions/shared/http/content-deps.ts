import { artifactPaths, contentReader, cursorCodec, projectStore } from '../container.ts';

/** Dependencies shared by the extracted-content listings. */
export async function contentDeps() {
  return {
    projects: projectStore(),
    content: contentReader(),
    cursors: await cursorCodec(),
    artifacts: await artifactPaths(),
  };
}

/** Drops unset query members so they never reach filters (or cursor scopes) as `undefined`. */
export function defined<T extends Record<string, unknown>>(
  value: T,
): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, item]) => item !== undefined)) as never;
}
