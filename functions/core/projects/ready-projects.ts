import { LRUCache } from 'lru-cache';
import type { OwnedProject } from './model.ts';
import type { ProjectStore } from './ports.ts';

/**
 * The projects a function has found ready, kept for `ttlMs` of its life under the organization that
 * owns them: a search reads the project's index location and ownership on every request, and neither
 * changes once a project is ready (`ready` is final, the index location is written once, projects are
 * not deleted). A project still provisioning, or failed, is read each time; another organization's id
 * is a different key, so isolation is the store's, unchanged.
 */
export function cachedReadyProjects<S extends Pick<ProjectStore, 'get' | 'list'>>(
  store: S,
  options: { ttlMs: number; max?: number; perf?: { now(): number } },
): Pick<ProjectStore, 'get' | 'list'> {
  const cache = new LRUCache<string, OwnedProject>({
    max: options.max ?? 500,
    ttl: options.ttlMs,
    ttlResolution: 0,
    ...(options.perf ? { perf: options.perf } : {}),
  });
  return {
    async get(orgId, projectId) {
      const key = `${orgId}/${projectId}`;
      const cached = cache.get(key);
      if (cached) return cached;
      const record = await store.get(orgId, projectId);
      if (record?.status === 'ready' && record.indexLocation !== null) cache.set(key, record);
      return record;
    },
    list: (orgId, options) => store.list(orgId, options),
  };
}
