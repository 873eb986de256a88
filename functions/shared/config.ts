import { z } from 'zod';
import { currentFunction, type FunctionEnvironment } from './function-environment.ts';
import { RESOURCES, type ResourceEnvVariable, type ResourceName } from './resources.ts';

/**
 * Environment of every function, parsed once at cold start. Each function receives only the
 * variables its resources need (the CDK `bind*` helpers set them), so most are optional here and
 * `required()` fails fast, naming the missing variable, when code needs one it was not given.
 */
const resourceVariables = Object.fromEntries(
  Object.values(RESOURCES).map((resource) => [resource.env, z.string().min(1).optional()]),
) as { [V in ResourceEnvVariable]: z.ZodOptional<z.ZodString> };

const ConfigSchema = z.object({
  STAGE: z.string().default('local'),
  /** One variable per resource of `resources.ts` (set by `bind` on AWS, by the local stack locally). */
  ...resourceVariables,
  /** The signing key itself, locally (generated at each start); on AWS it comes from the `signingKey` secret. */
  SIGNING_KEY: z.string().min(32).optional(),
  /** The origin secret itself, locally (the local server adds it as CloudFront does); on AWS from the `originVerify` secret. */
  ORIGIN_VERIFY: z.string().min(32).optional(),
  PROJECT_CREATION_PRICE: z.coerce.number().int().min(0).default(100),
  /** Credits per successfully processed page (reserved at preflight, debited per page). */
  CREDITS_PER_PAGE: z.coerce.number().int().min(0).default(1),
  /** Pages per extraction task of the pipeline. */
  PAGES_PER_BATCH: z.coerce.number().int().min(1).max(500).default(25),
  /** Lets webhooks target private addresses (localhost): for local development only. */
  WEBHOOK_ALLOW_PRIVATE_TARGETS: z
    .enum(['true', 'false'])
    .default('false')
    .transform((value) => value === 'true'),
  /** First retry delay of webhook deliveries; later ones grow from it (30 s, 2 min, 10 min, ...). */
  WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).default(30),
  /** Files of at least this size upload in parts (default 100 MiB). */
  MULTIPART_THRESHOLD_BYTES: z.coerce
    .number()
    .int()
    .min(5 * 1024 * 1024)
    .default(100 * 1024 * 1024),
  /** Target part size of multipart uploads (default 64 MiB; S3 allows 5 MiB to 5 GiB). */
  MULTIPART_PART_SIZE_BYTES: z.coerce
    .number()
    .int()
    .min(5 * 1024 * 1024)
    .max(5 * 1024 ** 3)
    .default(64 * 1024 * 1024),
  /** Lifetime of signed upload URLs (default 1 hour). */
  UPLOAD_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 24 * 3600)
    .default(3600),
  /** `bedrock` on AWS; `local` runs GloVe word vectors on the CPU (the local stack's default). */
  EMBEDDER: z.enum(['bedrock', 'local']).default('bedrock'),
  /** Dimension asked of the Bedrock model (Titan Text Embeddings V2 accepts 256, 512 or 1024). */
  EMBEDDING_DIMENSION: z.coerce.number().int().min(8).max(4096).default(512),
  /** Hybrid search's reciprocal rank fusion: k of the lexical and the semantic ranking, and the semantic weight. */
  SEARCH_LEXICAL_RRF_K: z.coerce.number().min(0).max(1000).default(5),
  SEARCH_SEMANTIC_RRF_K: z.coerce.number().min(0).max(1000).default(60),
  SEARCH_SEMANTIC_WEIGHT: z.coerce.number().min(0).max(10).default(1),
  /** Weight of the rankings within what a query names: its files (job, document), its sheet or section numbers. */
  SEARCH_NAMED_WEIGHT: z.coerce.number().min(0).max(10).default(1.5),
  /**
   * Weight of a query's expansion terms (the trade terms of its plain words) against its own words, applied
   * to the nearest 1/n (n up to 8) below 1 and the nearest whole number above; 0 turns expansion off.
   */
  SEARCH_EXPANSION_WEIGHT: z.coerce.number().min(0).max(10).default(0.5),
  /**
   * Most pairs of a query's consecutive words also searched as phrases that count once more where they
   * stand together (not required); 0 turns them off.
   */
  SEARCH_PROXIMITY_PAIRS: z.coerce.number().int().min(0).max(20).default(12),
  /**
   * Pseudo-relevance feedback: most words shared by the best passages of a question (three plain words or
   * more) searched again beside it, at the expansion's weight; 0 turns it off.
   */
  SEARCH_FEEDBACK_TERMS: z.coerce.number().int().min(0).max(20).default(0),
  /**
   * A rerank stage after fusion: `bedrock` reorders the top SEARCH_RERANK_DEPTH sources of a source search
   * with the Bedrock reranker (RERANK_MODEL_ID); `off` (the default, and always locally: no Bedrock here).
   */
  SEARCH_RERANK: z.enum(['off', 'bedrock']).default('off'),
  SEARCH_RERANK_DEPTH: z.coerce.number().int().min(2).max(100).default(20),
  /**
   * How much a fused source's coverage of the query raises its score (`reweighByCoverage`), over the first
   * SEARCH_COVERAGE_DEPTH fused sources; 0: off. Chosen on the shared labelled queries (docs/decisions.md).
   */
  SEARCH_COVERAGE_WEIGHT: z.coerce.number().min(0).max(20).default(2),
  SEARCH_COVERAGE_DEPTH: z.coerce.number().int().min(1).max(200).default(20),
  /** Locally only: the folder that holds project indexes (`s3://bucket/key` -> `{root}/bucket/key`). */
  LOCAL_INDEX_ROOT: z.string().min(1).optional(),
  /** Who answers review questions: `bedrock` on AWS; `extractive` quotes the sources (no model service: the local stack's default). */
  ANSWERER: z.enum(['bedrock', 'extractive']).default('bedrock'),
  /** Heartbeat events of a running review execution, and its (non-terminal) response-time target. */
  REVIEW_HEARTBEAT_MS: z.coerce.number().int().min(1000).max(60_000).default(10_000),
  REVIEW_RESPONSE_TARGET_MS: z.coerce.number().int().min(1000).max(600_000).default(20_000),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  /**
   * How long a function keeps a key it has verified (`cachedKeyReads`): the bound within which a revoked
   * key is refused everywhere. 0: every request reads the key.
   */
  API_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(60).default(5),
  MAX_JSON_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
});

export type Config = z.infer<typeof ConfigSchema>;

function parseConfig(env: Readonly<Record<string, string | undefined>>): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

/** This process's configuration, parsed at cold start (on Lambda: the function's own). */
const processConfig = parseConfig(process.env);
/** Locally, each function's own, parsed at its first use (`function-environment.ts`). */
const configByFunction = new WeakMap<FunctionEnvironment, Config>();

function currentConfig(): Config {
  const fn = currentFunction();
  if (!fn) return processConfig;
  let parsed = configByFunction.get(fn);
  if (!parsed) {
    parsed = parseConfig(fn.variables);
    configByFunction.set(fn, parsed);
  }
  return parsed;
}

/** The running function's configuration. */
export const config: Config = new Proxy(processConfig, {
  get: (_target, key) => currentConfig()[key as keyof Config],
});

type OptionalKeys = {
  [K in keyof Config]-?: undefined extends Config[K] ? K : never;
}[keyof Config];

/** The name, URL or ARN of a resource this function is bound to; fails fast when it is not. */
export function resource(name: ResourceName): string {
  return required(RESOURCES[name].env);
}

export function required<K extends OptionalKeys>(name: K): NonNullable<Config[K]> {
  const value = config[name];
  if (value === undefined || value === null) {
    throw new Error(`Missing configuration: environment variable ${name} is not set for this function`);
  }
  return value as NonNullable<Config[K]>;
}
