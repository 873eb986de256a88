import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { STATE_MACHINES } from '../../../functions/shared/state-machines.ts';

const require = createRequire(import.meta.url);
const validate = require('asl-validator') as (
  definition: unknown,
  options?: { checkPaths?: boolean; checkArn?: boolean },
) => { isValid: boolean; errorsText: (separator?: string) => string };

describe('state machine definitions', () => {
  it.each(STATE_MACHINES)('$file is valid ASL once its placeholders are substituted', (machine) => {
    let text = readFileSync(machine.file, 'utf8');
    const placeholders = [...text.matchAll(/\$\{(\w+)\}/g)].map((match) => match[1]);
    expect(new Set(placeholders)).toEqual(new Set(Object.keys(machine.tasks)));
    for (const placeholder of placeholders) {
      text = text.replaceAll(
        `\${${placeholder}}`,
        `arn:aws:lambda:us-east-1:123456789012:function:${placeholder}`,
      );
    }

    const result = validate(JSON.parse(text), { checkPaths: true, checkArn: true });

    expect(result.errorsText()).toBe('');
    expect(result.isValid).toBe(true);
  });
});
