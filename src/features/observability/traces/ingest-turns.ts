import { TooManyRequestsError } from '../../../errors.js';

// Ingestion is bulk work: a flood of exports must neither take every database connection from the
// interactive requests nor let one workspace's exporters hold back another's. So a process stores
// at most `concurrent` batches at once, and the batches waiting take turns by workspace (each
// workspace's oldest, round robin), as the job queue's lanes do. Past `waiting` batches in line, an
// export is answered 429 with Retry-After: OTLP exporters retry it, so nothing is lost.

type Waiting = { start: () => void };

export function createIngestTurns(options: {
  concurrent: number;
  waiting: number;
  retryAfterSeconds?: number;
}) {
  let running = 0;
  let queued = 0;
  const byWorkspace = new Map<string, Waiting[]>();

  function next(): void {
    while (running < options.concurrent && byWorkspace.size > 0) {
      // The workspace that waited longest goes first; it moves to the back once served.
      const [workspaceId, line] = byWorkspace.entries().next().value as [string, Waiting[]];
      byWorkspace.delete(workspaceId);
      const turn = line.shift()!;
      if (line.length > 0) byWorkspace.set(workspaceId, line);
      queued -= 1;
      running += 1;
      turn.start();
    }
  }

  return {
    /** Runs `work` in the workspace's turn; rejects with 429 when too many batches already wait. */
    async take<Result>(workspaceId: string, work: () => Promise<Result>): Promise<Result> {
      if (running >= options.concurrent) {
        if (queued >= options.waiting)
          throw new TooManyRequestsError(
            'ingest_busy',
            'Too many trace exports are waiting to be stored; retry after a moment',
            options.retryAfterSeconds ?? 1,
          );
        queued += 1;
        await new Promise<void>((start) => {
          const line = byWorkspace.get(workspaceId) ?? [];
          line.push({ start });
          byWorkspace.set(workspaceId, line);
        });
      } else {
        running += 1;
      }
      try {
        return await work();
      } finally {
        running -= 1;
        next();
      }
    },
    /** Batches being stored and waiting, for tests and metrics. */
    get load() {
      return { running, queued };
    },
  };
}

export type IngestTurns = ReturnType<typeof createIngestTurns>;
