import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  createWorkerEmbedder,
  type EmbeddingWorkerRequest,
} from '../../src/retrieval/embedders/worker-embedder.js';

/** A stand-in worker thread: records each call; the test answers it (a text embeds as [length, 1]). */
class FakeWorker extends EventEmitter {
  calls: EmbeddingWorkerRequest[] = [];
  postMessage(request: EmbeddingWorkerRequest) {
    this.calls.push(request);
  }
  answer() {
    const request = this.calls.shift()!;
    this.emit('message', { id: request.id, vectors: request.texts.map((text) => [text.length, 1]) });
  }
  ref() {}
  unref() {}
  async terminate() {
    this.emit('exit', 1);
    return 1;
  }
}

function fakeEmbedder(threads: number) {
  const workers: FakeWorker[] = [];
  const embedder = createWorkerEmbedder({
    model: 'fake',
    documentBatchSize: 2,
    threads,
    start: () => {
      const worker = new FakeWorker();
      workers.push(worker);
      return worker;
    },
  });
  return { embedder, workers };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));
const lengthsOf = (vectors: Float32Array[]) => vectors.map((vector) => Math.round(vector[0]! / vector[1]!));

describe('worker embedder', () => {
  it('embeds document batches on as many threads as it has, each started when there is work for it', async () => {
    const { embedder, workers } = fakeEmbedder(2);
    const embedded = embedder.embed(['a', 'bb', 'ccc', 'dddd', 'eeeee'], 'document');
    await settled();
    // Three batches of at most two: two threads take one each, the third batch waits.
    expect(workers).toHaveLength(2);
    expect(workers.map((worker) => worker.calls.map((call) => call.texts))).toEqual([
      [['a', 'bb']],
      [['ccc', 'dddd']],
    ]);
    workers[1]!.answer();
    await settled();
    expect(workers[1]!.calls.map((call) => call.texts)).toEqual([['eeeee']]);
    workers[0]!.answer();
    workers[1]!.answer();
    // In the order given, whichever thread embedded which batch.
    expect(lengthsOf(await embedded)).toEqual([1, 2, 3, 4, 5]);
    await embedder.close();
  });

  it('puts waiting queries before waiting document batches', async () => {
    const { embedder, workers } = fakeEmbedder(1);
    const documents = embedder.embed(['a', 'bb', 'ccc', 'dddd'], 'document');
    await settled();
    const query = embedder.embed(['query!'], 'query');
    workers[0]!.answer();
    await settled();
    expect(workers[0]!.calls.map((call) => call.texts)).toEqual([['query!']]);
    workers[0]!.answer();
    expect(lengthsOf(await query)).toEqual([6]);
    await settled();
    workers[0]!.answer();
    expect(lengthsOf(await documents)).toEqual([1, 2, 3, 4]);
    await embedder.close();
  });

  it('fails the call of a thread that stopped, and starts a new thread for the next one', async () => {
    const { embedder, workers } = fakeEmbedder(1);
    const lost = embedder.embed(['a'], 'query');
    await settled();
    workers[0]!.emit('exit', 1);
    await expect(lost).rejects.toThrow('the embedding worker stopped');
    const next = embedder.embed(['bb'], 'query');
    await settled();
    expect(workers).toHaveLength(2);
    workers[1]!.answer();
    expect(lengthsOf(await next)).toEqual([2]);
    await embedder.close();
  });
});
