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
