import { Worker } from 'node:worker_threads';

export type Probe = { stop(): Promise<number[]> };

/**
 * The probe runs on a thread of its own: on this process's main thread it would also wait for the
 * bench's own work (building and sending 90 MB of upload bodies), and count that as the service's.
 */
const probeSource = `
const { parentPort, workerData } = require('node:worker_threads');
const latencies = [];
const waiting = [];
const timer = setInterval(() => {
  const started = performance.now();
  waiting.push(
    fetch(workerData.url).then((response) => response.text()).then(() => latencies.push(performance.now() - started)),
  );
}, workerData.everyMs);
parentPort.once('message', async () => {
  clearInterval(timer);
  await Promise.all(waiting);
  parentPort.postMessage(latencies);
});
`;

/**
 * Sends `GET /healthz` every `everyMs` on a fixed schedule, never waiting for the previous answer, so
 * a stalled event loop shows in every probe it holds up; `stop` answers each probe's latency.
 */
export function startProbe(baseUrl: string, everyMs = 20): Probe {
  const worker = new Worker(probeSource, { eval: true, workerData: { url: `${baseUrl}/healthz`, everyMs } });
  return {
    async stop() {
      const latencies = new Promise<number[]>((resolve) => worker.once('message', resolve));
      worker.postMessage('stop');
      const answered = await latencies;
      await worker.terminate();
      return answered;
    },
  };
}
