import { currentFunction } from './function-environment.ts';

/** Outside a local function invocation (on Lambda: always), values belong to the process. */
const PROCESS = {};

/**
 * A value built on first use, then reused (per cold start: on Lambda, per process; locally, per
 * function, since the local stack runs many functions in one process, each with its own environment).
 */
export function lazy<T>(build: () => T): () => T {
  const values = new WeakMap<object, { value: T }>();
  return () => {
    const owner = currentFunction() ?? PROCESS;
    let built = values.get(owner);
    if (!built) {
      built = { value: build() };
      values.set(owner, built);
    }
    return built.value;
  };
}

/**
 * `base` with `extra`'s members added, keeping `base`'s getters as getters (a spread would call each
 * one, building every adapter, and so need every adapter's configuration).
 */
export function extend<T extends object, E extends object>(base: T, extra: E): T & E {
  return Object.defineProperties(base, Object.getOwnPropertyDescriptors(extra)) as T & E;
}
