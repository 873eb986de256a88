import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENERATED_PATH, generateSchema } from '../scripts/generate.ts';

describe('generated SDK code', () => {
  it('is what `npm run sdk:generate` makes of docs/openapi.json today', async () => {
    // Prepare
    const committed = readFileSync(GENERATED_PATH, 'utf8');
    // Act
    const fresh = await generateSchema();
    // Assess: a difference means docs/openapi.json changed; run `npm run sdk:generate` and commit.
    expect(committed, 'sdk/src/generated/schema.ts is stale: run `npm run sdk:generate`').toBe(fresh);
  });
});
