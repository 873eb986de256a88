import { describe, expect, it } from 'vitest';
import { SameThreadPort } from '../../../functions/engine/io/pdf-port.ts';

const received = (port: SameThreadPort, signal?: AbortSignal): unknown[] => {
  const messages: unknown[] = [];
  port.addEventListener('message', (event) => messages.push(event.data), signal ? { signal } : undefined);
  return messages;
};

describe('the same-thread pdf.js port', () => {
  it('hands an operator-list chunk over with its own arrays, the operators themselves shared', async () => {
    // Prepare: a chunk as OperatorList.flush sends it, emptied right after sending.
    const port = new SameThreadPort();
    const messages = received(port);
    const operator = [[1, 2, 3]];
    const fnArray = [91, 13];
    const argsArray: unknown[] = [operator, null];

    // Act
    port.postMessage({ stream: 4, streamId: 1, chunk: { fnArray, argsArray, lastChunk: true, length: 2 } });
    fnArray.length = 0;
    argsArray.length = 0;
    await Promise.resolve();
    await Promise.resolve();

    // Assess
    expect(messages).toEqual([
      {
        stream: 4,
        streamId: 1,
        chunk: { fnArray: [91, 13], argsArray: [[[1, 2, 3]], null], lastChunk: true, length: 2 },
      },
    ]);
    const chunk = (messages[0] as { chunk: { argsArray: unknown[] } }).chunk;
    expect(chunk.argsArray[0]).toBe(operator);
  });

  it('clones every other message, later, and stops calling a listener whose signal aborted', async () => {
    // Prepare
    const port = new SameThreadPort();
    const controller = new AbortController();
    const kept = received(port);
    const aborted = received(port, controller.signal);
    const message = { action: 'GetPage', data: { pageIndex: 3 } };

    // Act
    port.postMessage(message);
    const beforeDelivery = [...kept];
    message.data.pageIndex = 9;
    await Promise.resolve();
    await Promise.resolve();
    controller.abort();
    port.postMessage({ action: 'Cleanup' });
    await Promise.resolve();
    await Promise.resolve();

    // Assess
    expect(beforeDelivery).toEqual([]);
    expect(kept).toEqual([{ action: 'GetPage', data: { pageIndex: 3 } }, { action: 'Cleanup' }]);
    expect(aborted).toEqual([{ action: 'GetPage', data: { pageIndex: 3 } }]);
  });
});
