/** How to build each member of `T`. */
export type Builders<T> = { [K in keyof T]: () => T[K] };

/**
 * An object whose members are built on first read, then kept: a function only needs the configuration
 * (and grants) of the adapters its use case actually reads, though its profile lists more. Pass it
 * whole, or pick members by name: a spread (`{ ...wired }`) reads, and so builds, every member.
 */
export function wire<T extends object>(builders: Builders<T>): T {
  const wired = {} as T;
  for (const key of Object.keys(builders) as (keyof T & string)[]) {
    const build = builders[key];
    let built: { value: T[typeof key] } | undefined;
    Object.defineProperty(wired, key, {
      enumerable: true,
      get: () => {
        built ??= { value: build() };
        return built.value;
      },
    });
  }
  return wired;
}
