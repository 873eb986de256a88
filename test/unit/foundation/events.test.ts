import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../functions/shared/routes.ts';
import { STATE_MACHINES } from '../../../functions/shared/state-machines.ts';

const fileOf = (handler: string) => handler.split('/').pop()?.replace('.ts', '.json');

describe('sample events', () => {
  it.each(ROUTES)('events/http has a sample for $id matching its route', (route) => {
    const event = JSON.parse(readFileSync(`events/http/${fileOf(route.handler)}`, 'utf8'));
    expect(event.routeKey).toBe(`${route.method} ${route.path}`);
    expect(event.requestContext.http.method).toBe(route.method);
  });

  it('events/sfn has a sample for every state machine task', () => {
    for (const machine of STATE_MACHINES) {
      for (const task of Object.values(machine.tasks)) {
        expect(() => JSON.parse(readFileSync(`events/sfn/${fileOf(task.handler)}`, 'utf8'))).not.toThrow();
      }
    }
  });
});
