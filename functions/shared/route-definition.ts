import type { Scope } from '../core/auth/scopes.ts';
import type { Access } from './resources.ts';

/** One entry of the route table (`routes.ts`). */
export interface RouteDefinition {
  id: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway syntax: `{name}` for a path parameter. */
  path: string;
  /** Handler module, relative to the repository root; it exports `handler`. */
  handler: string;
  auth: 'apiKey' | 'session';
  /** Scope the API key needs; session routes have none. */
  scope?: Scope;
  /** Resources the handler touches, by name in `resources.ts`. */
  access: Access;
  summary: string;
  /** Opens the project's source index (LanceDB's native library): deployed with the index layer, on x86_64. */
  usesIndex?: boolean;
  /** The function's memory in MB (and so its CPU share); 512 when absent. */
  memoryMb?: number;
}

/** Handler module of an HTTP route. */
export const http = (file: string) => `functions/handlers/http/${file}.ts`;
