import { z } from 'zod';
import { CitationSchema, EXECUTION_STATUSES } from './model.ts';
import type { StreamEvent } from './stream.ts';

/**
 * THE public-data boundary of review events: every event is rebuilt here before it is stored and
 * again before it is sent. Each type has its payload schema (unknown fields are dropped, a payload
 * that does not fit is refused), and every string is scrubbed of what must never leave the service:
 * AWS ARNs and service URLs (runtime, orchestrator, storage), signed-URL parameters, bearer tokens and
 * API keys, model ids. Errors keep only public codes; any other error becomes a generic one.
 */

const ToolPayloadSchema = z.object({
  name: z.enum(['search_sources', 'read_source', 'review_sources']),
  status: z.enum(['running', 'completed']),
  modes: z.array(z.enum(['exact', 'semantic'])).optional(),
  hitCount: z.number().int().min(0).optional(),
  sourceCount: z.number().int().min(0).optional(),
  pageCount: z.number().int().min(0).optional(),
  continuationCount: z.number().int().min(0).optional(),
});

const PublicArtifactSchema = z.object({
  type: z.enum(['region_crop', 'specification_file']),
  url: z.string().regex(/^\/api\/open\/v1\/projects\/prj_[0-9a-z]{26}\/artifact\?path=[A-Za-z0-9%._~-]+$/),
  path: z.string(),
  readWith: z.literal('service_show_artifact_file'),
});

/** Error codes an execution may show; any other error is `review_execution_failed`. */
export const PUBLIC_EXECUTION_ERRORS = {
  review_execution_failed: 'The answer could not be completed. Ask the question again.',
  source_index_not_ready: 'The project index is being built; ask again in a minute.',
  review_answerer_unavailable: 'The answering service is unavailable right now; ask again in a minute.',
  review_execution_timed_out: 'The answer took too long and was stopped. Ask a narrower question.',
} as const;
export type PublicExecutionErrorCode = keyof typeof PUBLIC_EXECUTION_ERRORS;

export const EVENT_PAYLOAD_SCHEMAS = {
  'stream.ready': z.object({
    executionId: z.string(),
    status: z.enum(EXECUTION_STATUSES),
    after: z.number().int().describe('The cursor this connection resumes after (-1: from the start).'),
    heartbeatIntervalMs: z.number().int(),
  }),
  'response.started': z.object({ responseTargetMs: z.number().int() }),
  'review.title.updated': z.object({ reviewId: z.string(), title: z.string() }),
  'tool.started': ToolPayloadSchema,
  'tool.completed': ToolPayloadSchema,
  'response.text.delta': z.object({ delta: z.string() }),
  'source.reviewed': z.object({
    sourceCatalogUri: z.string(),
    source: z.object({ type: z.string(), id: z.string(), label: z.string() }),
    fileName: z.string(),
    pageNumber: z.number().int(),
    pageEnd: z.number().int(),
    sheetNumber: z.string().nullable(),
  }),
  citation: CitationSchema,
  'artifact.manifest': z.object({ sourceCatalogUri: z.string(), artifact: PublicArtifactSchema }),
  heartbeat: z.object({
    status: z.enum(EXECUTION_STATUSES),
    intervalMs: z
      .number()
      .int()
      .describe('The next heartbeat comes within this many milliseconds while the execution is active.'),
  }),
  'response.completed': z.object({
    text: z.string().describe('The canonical full answer.'),
    status: z.enum(['succeeded', 'partial']),
  }),
  'response.error': z.object({
    code: z.enum(
      Object.keys(PUBLIC_EXECUTION_ERRORS) as [PublicExecutionErrorCode, ...PublicExecutionErrorCode[]],
    ),
    message: z.string(),
    retryable: z.boolean(),
  }),
} as const satisfies Record<StreamEvent['type'], z.ZodType>;

export type EventType = keyof typeof EVENT_PAYLOAD_SCHEMAS;
export type EventPayload<T extends EventType> = z.input<(typeof EVENT_PAYLOAD_SCHEMAS)[T]>;

const SCRUBBED = '[internal]';
const SECRET_PATTERNS: RegExp[] = [
  /arn:aws[a-z-]*:[^\s"'<>]*/gi,
  /https?:\/\/[^\s"'<>]*(?:amazonaws\.com|on\.aws|lambda-url|execute-api|cloudfront\.net)[^\s"'<>]*/gi,
  /[?&]X-Amz-[A-Za-z-]+=[^&\s"'<>]*/gi,
  /\bBearer\s+[A-Za-z0-9._~+/=-]+/gi,
  /\bpsk_[A-Za-z0-9_]+/g,
  /\b(?:anthropic|amazon|meta|mistral|cohere|ai21|us|eu|apac)\.[a-z0-9-]+(?:\.[a-z0-9-]+)*-v\d+(?::\d+)?\b/gi,
  /\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g,
];

export function scrub(text: string): string {
  let out = text;
  for (const pattern of SECRET_PATTERNS) out = out.replace(pattern, SCRUBBED);
  return out;
}

function scrubDeep(value: unknown): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map(scrubDeep);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrubDeep(inner)]));
  return value;
}

export class UnpublishableEventError extends Error {
  constructor(type: string, detail: string) {
    super(`A ${type} event does not fit its public schema: ${detail}`);
    this.name = 'UnpublishableEventError';
  }
}

/**
 * The public form of an event payload: only the fields of its type's schema, every string scrubbed.
 * Throws UnpublishableEventError when the payload does not fit (it is then neither stored nor sent).
 */
export function publicPayload<T extends EventType>(type: T, payload: unknown): Record<string, unknown> {
  const candidate =
    type === 'response.error' ? publicError(payload) : (scrubDeep(payload) as Record<string, unknown>);
  const parsed = EVENT_PAYLOAD_SCHEMAS[type].safeParse(candidate);
  if (!parsed.success) throw new UnpublishableEventError(type, parsed.error.issues[0]?.message ?? 'invalid');
  return parsed.data as Record<string, unknown>;
}

/** A public error from anything thrown or reported inside: known codes keep their public message. */
export function publicError(error: unknown): {
  code: PublicExecutionErrorCode;
  message: string;
  retryable: boolean;
} {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && code in PUBLIC_EXECUTION_ERRORS) {
    const known = code as PublicExecutionErrorCode;
    return {
      code: known,
      message: PUBLIC_EXECUTION_ERRORS[known],
      retryable: known !== 'review_execution_timed_out',
    };
  }
  return {
    code: 'review_execution_failed',
    message: PUBLIC_EXECUTION_ERRORS.review_execution_failed,
    retryable: true,
  };
}

/** The whole event rebuilt: envelope fields typed, payload through publicPayload. */
export function publicEvent(event: StreamEvent): StreamEvent {
  return {
    version: 1,
    executionId: event.executionId,
    sequence: event.sequence,
    createdAt: event.createdAt,
    type: event.type,
    payload: publicPayload(event.type, event.payload),
  };
}
