import { type Endpoint, ROUTES, type RouteDefinition } from './routes.ts';

/** Matching request paths against the route table (the local server, the fallback handler, tests). */

export interface RouteMatch {
  route: Endpoint;
  pathParameters: Record<string, string>;
}

function compile(path: string): RegExp {
  const pattern = path
    .split('/')
    .map((segment) => (segment.startsWith('{') ? '([^/]+)' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${pattern}$`);
}

const compiled = ROUTES.map((route) => ({
  route: route as Endpoint,
  regex: compile(route.path),
  names: [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string),
}));

function safeDecode(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The path parameters of `path` when it matches `route`'s path, else null. */
export function matchRoute(route: Endpoint | RouteDefinition, path: string): Record<string, string> | null {
  const names = [...route.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1] as string);
  const found = compile(route.path).exec(path);
  if (!found) return null;
  const parameters: Record<string, string> = {};
  for (const [index, name] of names.entries()) {
    const decoded = safeDecode(found[index + 1] ?? '');
    if (decoded === null) return null;
    parameters[name] = decoded;
  }
  return parameters;
}

/** Routes whose path matches, whatever their method (405 needs them). */
export function matchPath(path: string): RouteMatch[] {
  const matches: RouteMatch[] = [];
  for (const { route, regex, names } of compiled) {
    const found = regex.exec(path);
    if (!found) continue;
    const pathParameters: Record<string, string> = {};
    const decoded = names.map((name, index) => [name, safeDecode(found[index + 1] ?? '')] as const);
    // A segment that is not valid percent-encoding matches no route (404), never throws.
    if (decoded.some(([, value]) => value === null)) continue;
    for (const [name, value] of decoded) pathParameters[name] = value ?? '';
    matches.push({ route, pathParameters });
  }
  return matches;
}
