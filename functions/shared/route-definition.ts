import type { z } from 'zod';
import type { Scope } from '../core/auth/scopes.ts';
import type { Access } from './resources.ts';

/** An endpoint's route: what the CDK stack deploys and the local server routes. */
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

/** What a request carries, validated by the handler (`apiHandler`) and documented by OpenAPI. */
export interface EndpointRequest {
  body?: z.ZodType;
  /** The code of a 400 for an invalid body, when the spec names one (`invalid_review`); else `invalid_request`. */
  bodyErrorCode?: string;
  /** Request headers the operation reads (documented; the handler validates them). */
  headers?: z.ZodType;
  query?: z.ZodType;
  path?: z.ZodType;
}

/**
 * One HTTP endpoint, defined once beside its handler (`functions/handlers/http/<name>.endpoint.ts`): its
 * route, its request, its responses and its access. The handler validates with it, the CDK stack and the
 * local server route with it (`routes.ts` lists them), and the OpenAPI document is generated from it.
 */
export interface Endpoint extends RouteDefinition {
  request: EndpointRequest;
  responses: Record<number, { description: string; schema?: z.ZodType }>;
}

/** An endpoint's definition, its literal types kept (the handler's request is typed from it). */
export const endpoint = <const E extends Endpoint>(definition: E): E => definition;

/** Handler module of an HTTP route. */
export const http = (file: string) => `functions/handlers/http/${file}.ts`;

/**
 * Memory of the functions that open project indexes on S3, and so their CPU share (a full vCPU at
 * 1,769 MB). npm run bench:search-sizing (figures in docs/decisions.md): a search process holds 126 MB
 * before it opens an index, peaks at 215 MB for an exact scan just under the vector-index threshold
 * and at 198 MB for an indexed project of 50,000 rows, and each open project adds about 4 MB (at most
 * OPEN_PROJECTS are kept: 250 MB). 1,024 MB keeps that under half, with 0.58 vCPU for decoding.
 */
export const SEARCH_MEMORY_MB = 1024;
