import { z } from 'zod';

/**
 * Environment of every function, parsed once at cold start. Each function receives only the
 * variables its resources need (the CDK `bind*` helpers set them), so most are optional here and
 * `required()` fails fast, naming the missing variable, when code needs one it was not given.
 */
const ConfigSchema = z.object({
  STAGE: z.string().default('local'),
  TABLE_NAME: z.string().min(1).optional(),
  UPLOADS_BUCKET: z.string().min(1).optional(),
  ARTIFACTS_BUCKET: z.string().min(1).optional(),
  INDEX_BUCKET: z.string().min(1).optional(),
  PROVISION_STATE_MACHINE_ARN: z.string().min(1).optional(),
  PROCESS_JOB_STATE_MACHINE_ARN: z.string().min(1).optional(),
  WEBHOOK_QUEUE_URL: z.string().min(1).optional(),
  /** HMAC key that signs pagination cursors. Locally a generated value; on AWS read from Secrets Manager. */
  CURSOR_SIGNING_KEY: z.string().min(32).optional(),
  CURSOR_SIGNING_SECRET_ARN: z.string().min(1).optional(),
  PROJECT_CREATION_PRICE: z.coerce.number().int().min(0).default(100),
  RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
  MAX_JSON_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
});

export type Config = z.infer<typeof ConfigSchema>;

function parseConfig(env: NodeJS.ProcessEnv): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new Error(`Invalid configuration: ${problems.join('; ')}`);
  }
  return parsed.data;
}

export const config: Config = parseConfig(process.env);

type OptionalKeys = {
  [K in keyof Config]-?: undefined extends Config[K] ? K : never;
}[keyof Config];

export function required<K extends OptionalKeys>(name: K): NonNullable<Config[K]> {
  const value = config[name];
  if (value === undefined || value === null) {
    throw new Error(`Missing configuration: environment variable ${name} is not set for this function`);
  }
  return value as NonNullable<Config[K]>;
}
