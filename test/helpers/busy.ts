import { type ChildProcess, spawn } from 'node:child_process';

/** Keeps this thread busy for `milliseconds`, as a client doing synchronous work between reads. */
export function spin(milliseconds: number): void {
  const until = performance.now() + milliseconds;
  while (performance.now() < until) {
    // Busy on purpose.
  }
}

/** Processes that keep one core each busy, so the machine is as loaded as a shared 2-core host. */
export function startCpuBurners(count: number): { stop(): void } {
  const burners: ChildProcess[] = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
  );
  return {
    stop() {
      for (const burner of burners) burner.kill('SIGKILL');
    },
  };
}

/** The official SDK's own Node SSE client (`@kluai/core`'s EventSource iterator), by file path. */
export async function sdkStreamingClient(): Promise<(url: string) => AsyncGenerator<string>> {
  const file = new URL(
    '../../node_modules/@kluai/core/dist/esm/sseClientServer-4QCKHED6.mjs',
    import.meta.url,
  ).href;
  const module = (await import(file)) as { _getStreamingData(url: string): AsyncGenerator<string> };
  return module._getStreamingData;
}

/**
 * Measures the longest time this process's event loop went without running a timer: how long its
 * sockets went unread. A process the machine did not schedule (a loaded host, a paused VM, a long
 * garbage collection) shows here as a long pause.
 */
export function watchEventLoop(): { longestPauseMs(): number; stop(): void } {
  let last = performance.now();
  let longest = 0;
  const tick = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 1);
  return {
    longestPauseMs: () => Math.max(longest, performance.now() - last),
    stop: () => clearInterval(tick),
  };
}
