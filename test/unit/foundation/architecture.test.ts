import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../functions/shared/routes.ts';

/**
 * The layering rules of STYLE.md, checked on the source itself: core (use cases, models, ports)
 * imports no adapter, no wiring and no AWS or Lambda package, and the core domains depend on each
 * other one way only. The extraction engine (`functions/engine`) is a library core calls, like a package: core
 * may import it; it imports nothing of core (checked below).
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const CORE = join(ROOT, 'functions/core');
const ENGINE = join(ROOT, 'functions/engine');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(dir, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(dir, entry.name)]
        : [],
  );
}

/** Every module specifier of a file: static imports and re-exports, dynamic imports, worker URLs. */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const found = [
    ...text.matchAll(/^\s*(?:import|export)\b[^'";]*?from\s+['"]([^'"]+)['"]/gms),
    ...text.matchAll(/^\s*import\s+['"]([^'"]+)['"]/gm),
    ...text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/new URL\(\s*['"](\.[^'"]+)['"]\s*,\s*import\.meta\.url/g),
  ];
  return found.map((match) => match[1] as string);
}

/** `functions/core/jobs/uploads.ts` -> `jobs`; files directly under core (errors, ids) are the kernel. */
function domainOf(file: string): string | null {
  const parts = relative(CORE, file).split('/');
  return parts.length > 1 ? (parts[0] as string) : null;
}

const files = sourceFiles(CORE);
const edges = new Map<string, Set<string>>();
const outsideCore: string[] = [];
const forbiddenPackages: string[] = [];

for (const file of files) {
  for (const specifier of specifiers(file)) {
    if (specifier.startsWith('.')) {
      const target = resolve(dirname(file), specifier);
      if (target.startsWith(`${ENGINE}/`)) continue;
      if (!target.startsWith(`${CORE}/`)) {
        outsideCore.push(`${relative(ROOT, file)} -> ${specifier}`);
        continue;
      }
      const from = domainOf(file);
      const to = domainOf(target);
      if (from && to && from !== to) {
        if (!edges.has(from)) edges.set(from, new Set());
        edges.get(from)?.add(to);
      }
    } else if (/^(@aws-sdk\/|aws-lambda$|@middy\/|@aws-lambda-powertools\/|aws-cdk-lib)/.test(specifier)) {
      forbiddenPackages.push(`${relative(ROOT, file)} -> ${specifier}`);
    } else if (specifier.startsWith('#')) {
      outsideCore.push(`${relative(ROOT, file)} -> ${specifier}`);
    }
  }
}

/** A cycle in the domain graph, as a path, or null. */
function findCycle(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'visiting') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'visiting');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const cycle = visit(next);
      if (cycle) return cycle;
    }
    stack.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const cycle = visit(node);
    if (cycle) return cycle;
  }
  return null;
}

describe('architecture', () => {
  it('reads the core sources (the check below is not vacuous)', () => {
    expect(files.length).toBeGreaterThan(50);
    expect(edges.get('jobs')?.has('projects')).toBe(true);
  });

  it('keeps the engine a library: it imports nothing of the service (core, adapters, wiring)', () => {
    const engineFiles = sourceFiles(ENGINE);
    const intoService = engineFiles.flatMap((file) =>
      specifiers(file)
        .filter((specifier) => specifier.startsWith('.') || specifier.startsWith('#'))
        .filter(
          (specifier) =>
            specifier.startsWith('#') || !resolve(dirname(file), specifier).startsWith(`${ENGINE}/`),
        )
        .map((specifier) => `${relative(ROOT, file)} -> ${specifier}`),
    );
    expect(engineFiles.length).toBeGreaterThan(40);
    expect(intoService).toEqual([]);
  });

  it('keeps core free of adapters, wiring (shared, handlers) and AWS or Lambda packages', () => {
    expect(outsideCore).toEqual([]);
    expect(forbiddenPackages).toEqual([]);
  });

  it('has core domains that depend on each other one way only', () => {
    expect(findCycle(edges)).toBeNull();
  });

  it('builds every table key in table.ts: no labelled key segment written by hand in the adapters', () => {
    // A key segment is a label and a value: `PROJECT#${projectId}`, `ORG#${orgId}`, ...
    const handBuilt = sourceFiles(join(ROOT, 'functions'))
      .filter((file) => !file.endsWith('adapters/dynamodb/table.ts'))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/`[A-Z]+#\$\{/g)].map(() => relative(ROOT, file)),
      );
    expect(handBuilt).toEqual([]);
  });

  it('reads stored items through their definition: no `as unknown as` in the DynamoDB adapters', () => {
    const casts = sourceFiles(join(ROOT, 'functions/adapters/dynamodb'))
      .filter((file) => readFileSync(file, 'utf8').includes('as unknown as'))
      .map((file) => relative(ROOT, file));
    expect(casts).toEqual([]);
  });

  it('keeps the wire out of core: no OpenAPI ids, no request bodies, no stream framing or Accept negotiation', () => {
    // The extraction engine's models still carry their OpenAPI ids (the engine is changed on its own).
    const wire = [
      { what: 'an OpenAPI id', pattern: /\.meta\(\{\s*id:/ },
      { what: 'a request body schema', pattern: /\b\w+BodySchema\b/ },
      { what: 'a use case input named body', pattern: /\binput:\s*\{[^}]*\bbody\??\s*:/ },
      { what: 'SSE or NDJSON framing', pattern: /text\/event-stream|application\/x-ndjson|\bevent: \$\{/ },
      { what: 'Accept negotiation', pattern: /headers\.accept|headers\['accept'\]|\bnegotiateFormat\b/i },
    ];
    const found = files
      .filter((file) => !file.includes('/engine/'))
      .flatMap((file) => {
        const text = readFileSync(file, 'utf8');
        return wire
          .filter(({ pattern }) => pattern.test(text))
          .map(({ what }) => `${relative(ROOT, file)}: ${what}`);
      });
    expect(found).toEqual([]);
  });

  it('declares each exported name once: no second copy of a type or a function to drift', () => {
    // Every handler module exports `handler`; the engine's own duplicates are its split's (another issue).
    const declared = new Map<string, string[]>();
    for (const file of sourceFiles(join(ROOT, 'functions')).filter((file) => !file.includes('/engine/'))) {
      for (const match of readFileSync(file, 'utf8').matchAll(
        /^export (?:declare )?(?:async )?(?:function|const|let|type|interface|class|enum) (\w+)/gm,
      )) {
        const name = match[1] as string;
        if (name !== 'handler') declared.set(name, [...(declared.get(name) ?? []), relative(ROOT, file)]);
      }
    }
    const twice = [...declared]
      .filter(([, where]) => where.length > 1)
      .map(([name, where]) => `${name}: ${where.join(', ')}`);
    expect(declared.size).toBeGreaterThan(300);
    expect(twice).toEqual([]);
  });

  it('wires each deployment profile in one function: handlers reach adapters only through it', () => {
    const WIRING = join(ROOT, 'functions/shared/wiring');
    const profiles = readdirSync(WIRING).filter(
      (file) => !['adapters.ts', 'secrets.ts', 'wire.ts'].includes(file),
    );
    const handlers = sourceFiles(join(ROOT, 'functions/handlers'));
    const reachingAround = handlers.flatMap((file) =>
      specifiers(file)
        .map((specifier) => (specifier.startsWith('.') ? resolve(dirname(file), specifier) : specifier))
        .filter(
          (target) =>
            // Metrics are recorded where they happen, like log lines (adapters/cloudwatch/metrics.ts).
            (target.startsWith(join(ROOT, 'functions/adapters/')) &&
              !target.endsWith('/cloudwatch/metrics.ts')) ||
            target === join(WIRING, 'adapters.ts') ||
            target === join(WIRING, 'secrets.ts') ||
            target === join(ROOT, 'functions/shared/clients.ts'),
        )
        .concat(specifiers(file).filter((specifier) => specifier.startsWith('@aws-sdk/')))
        .map(
          (target) =>
            `${relative(ROOT, file)} -> ${target.startsWith('/') ? relative(ROOT, target) : target}`,
        ),
    );
    // Members added by hand to a built object (`Object.defineProperty(...) as Deps`) hide what a use case gets.
    const handAdded = [...sourceFiles(join(ROOT, 'functions/shared')), ...handlers]
      .filter(
        (file) =>
          file !== join(WIRING, 'wire.ts') && readFileSync(file, 'utf8').includes('Object.defineProperty'),
      )
      .map((file) => relative(ROOT, file));
    // A spread reads, and so builds, every member: a function would need every adapter's configuration.
    const spread = handlers
      .filter((file) => /\.\.\.\w+Wiring\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    expect(profiles.sort()).toEqual(['api.ts', 'engine.ts', 'pipeline.ts', 'review.ts', 'search.ts']);
    expect(spread).toEqual([]);
    expect(handlers.length).toBeGreaterThan(60);
    expect(reachingAround).toEqual([]);
    expect(handAdded).toEqual([]);
  });

  it('defines each endpoint once, beside its handler, and lists each definition once', () => {
    const HTTP = join(ROOT, 'functions/handlers/http');
    const handlers = readdirSync(HTTP)
      .filter(
        (file) => file.endsWith('.ts') && !file.endsWith('.endpoint.ts') && file !== 'route-not-found.ts',
      )
      .sort();
    const definitions = readdirSync(HTTP)
      .filter((file) => file.endsWith('.endpoint.ts'))
      .map((file) => file.replace('.endpoint.ts', '.ts'))
      .sort();
    const listed = ROUTES.map((route) => route.handler.replace('functions/handlers/http/', '')).sort();
    // A route's path, method or access written anywhere else would be a second definition to drift.
    const elsewhere = sourceFiles(join(ROOT, 'functions'))
      .filter((file) => !file.endsWith('.endpoint.ts') && /\bpath: '\/api\//.test(readFileSync(file, 'utf8')))
      .map((file) => relative(ROOT, file));
    const byId = handlers.filter((file) => /apiHandler\(\s*'/.test(readFileSync(join(HTTP, file), 'utf8')));
    expect(handlers.length).toBeGreaterThan(30);
    expect(definitions).toEqual(handlers);
    expect(listed).toEqual(handlers);
    expect(new Set(ROUTES.map((route) => route.id)).size).toBe(ROUTES.length);
    expect(elsewhere).toEqual([]);
    expect(byId).toEqual([]);
  });

  it('finds a cycle when there is one (the detector works)', () => {
    const graph = new Map([
      ['projects', new Set(['jobs'])],
      ['jobs', new Set(['pagination', 'projects'])],
    ]);
    expect(findCycle(graph)).toEqual(['projects', 'jobs', 'projects']);
  });
});
