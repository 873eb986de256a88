import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const SDK = join(import.meta.dirname, '..', '..', '..', 'sdk');

describe('the SDK README', () => {
  it('shows examples/quickstart.ts (type-checked by npm run typecheck) word for word', () => {
    // Prepare
    const readme = readFileSync(join(SDK, 'README.md'), 'utf8');
    const example = readFileSync(join(SDK, 'examples', 'quickstart.ts'), 'utf8');
    const tsconfig = JSON.parse(readFileSync(join(SDK, 'tsconfig.json'), 'utf8'));

    // Act
    const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((match) => match[1]);

    // Assess
    expect(blocks).toContain(example);
    expect(tsconfig.include).toContain('examples');
  });

  it('documents every method group of the client and every error class the SDK exports', () => {
    // Prepare
    const readme = readFileSync(join(SDK, 'README.md'), 'utf8');
    const errors = readFileSync(join(SDK, 'src', 'errors.ts'), 'utf8');
    const node = readFileSync(join(SDK, 'src', 'node.ts'), 'utf8');

    // Act
    const classes = [...`${errors}\n${node}`.matchAll(/export class (Psa\w+Error)/g)].map((m) => m[1]);

    // Assess
    expect(classes.length).toBeGreaterThanOrEqual(6);
    for (const name of classes) expect(readme).toContain(`\`${name}\``);
    for (const group of ['projects', 'jobs', 'sheets', 'regions', 'sources', 'reviews', 'artifacts'])
      expect(readme).toContain(`\`${group}\``);
    for (const heading of ['## Install', '## Pagination', '## Upload', '## Streaming', '## Errors'])
      expect(readme).toContain(heading);
  });
});
