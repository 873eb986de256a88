import { type ParseArgsConfig, parseArgs } from 'node:util';
import { resourceName } from '../lib/resource-names.ts';

/** What the operator commands share: exit code 2 with a message for bad arguments, and the target table. */
export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/** The command's options, with `--stage` and `--table` beside its own; unknown options fail with code 2. */
export function operatorOptions<O extends NonNullable<ParseArgsConfig['options']>>(options: O) {
  try {
    return parseArgs({
      options: { stage: { type: 'string' }, table: { type: 'string' }, ...options },
      strict: true,
    }).values;
  } catch (error) {
    fail((error as Error).message);
  }
}

/** `--table` as given, or the table the stacks name for `--stage` (lib/resource-names.ts). */
export function targetTable(values: { stage?: string | boolean; table?: string | boolean }): string {
  const stage = typeof values.stage === 'string' ? values.stage : undefined;
  const table = typeof values.table === 'string' ? values.table : undefined;
  if (table === undefined && stage === undefined)
    fail('Give --stage (the deployed stage) or --table (a table name).');
  if (stage !== undefined && !/^[a-z][a-z0-9-]{0,30}$/.test(stage))
    fail('--stage is lowercase letters, digits and dashes.');
  return table ?? resourceName(stage as string, 'table');
}
