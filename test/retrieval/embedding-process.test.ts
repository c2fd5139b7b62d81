import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startEmbeddingProcess } from '../../src/retrieval/embedders/embedding-process.js';
import type { EmbeddingWorkerAnswer } from '../../src/retrieval/embedders/worker-embedder.js';
import { eventually } from '../helpers/test-app.js';

/** A model in miniature: each text embeds as [its length, the data's scale]; it reports its pid. */
const echoSource = `
const { scale } = JSON.parse(process.argv[1]);
process.on('disconnect', () => process.exit(0));
process.on('message', ({ id, texts }) => {
  process.send({ id, pid: process.pid, vectors: texts.map((text) => new Float32Array([text.length, scale])) });
});
`;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('embedding process', () => {
  it('embeds in a child process of its own, typed arrays intact, and ends with terminate', async () => {
    const worker = startEmbeddingProcess(echoSource, { scale: 7 });
    const answered = new Promise<EmbeddingWorkerAnswer & { pid: number }>((resolve) =>
      worker.on('message', (answer) => resolve(answer as EmbeddingWorkerAnswer & { pid: number })),
    );
    const exited = new Promise<void>((resolve) => worker.on('exit', resolve));
    worker.postMessage({ id: 3, texts: ['abc', 'de'] });
    const answer = await answered;
    expect(answer.id).toBe(3);
    expect(answer.pid).not.toBe(process.pid);
    expect(answer.vectors![0]).toBeInstanceOf(Float32Array);
    expect(answer.vectors!.map((vector) => Array.from(vector))).toEqual([
      [3, 7],
      [2, 7],
    ]);
    await worker.terminate();
    await exited;
    expect(alive(answer.pid)).toBe(false);
  });

  it('never outlives the process that started it, even one killed with SIGKILL', async () => {
    // A parent that starts the embedding process, has it answer once, prints its pid and waits.
    const parentSource = `
      const { startEmbeddingProcess } = await import(${JSON.stringify(new URL('../../src/retrieval/embedders/embedding-process.ts', import.meta.url).href)});
      const worker = startEmbeddingProcess(${JSON.stringify(echoSource)}, { scale: 1 });
      worker.on('message', (answer) => console.log(answer.pid));
      worker.postMessage({ id: 1, texts: ['x'] });
      setInterval(() => {}, 1000);
    `;
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', parentSource],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const [printed] = await once(parent.stdout!, 'data');
    const childPid = Number(String(printed).trim());
    expect(alive(childPid)).toBe(true);
    parent.kill('SIGKILL');
    await once(parent, 'exit');
    await eventually(async () => (alive(childPid) ? undefined : true));
  });
});
