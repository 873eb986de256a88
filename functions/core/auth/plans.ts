import { InvalidRequestError } from '../errors.ts';

/**
 * Organization plans and what they allow. An organization without a recorded plan is on `standard`.
 * The per-key request rate a session may set is capped by the plan, so one organization's keys
 * cannot claim a share of the service no plan sells.
 */
export const PLANS = {
  standard: { maxKeyRequestsPerMinute: 6_000 },
  enterprise: { maxKeyRequestsPerMinute: 60_000 },
} as const;
export type PlanName = keyof typeof PLANS;

export function planOf(value: unknown): PlanName {
  return typeof value === 'string' && value in PLANS ? (value as PlanName) : 'standard';
}

export function checkKeyRateLimit(plan: PlanName, requested: number | null | undefined): void {
  const max = PLANS[plan].maxKeyRequestsPerMinute;
  if (requested !== null && requested !== undefined && requested > max) {
    throw new InvalidRequestError(
      'rate_limit_above_plan',
      `rateLimitPerMinute may be at most ${max} on the ${plan} plan.`,
      { maxRateLimitPerMinute: max, plan },
    );
  }
}

export interface PlanLookup {
  /** The organization's plan (`standard` when none is recorded). */
  planOf(orgId: string): Promise<PlanName>;
}
