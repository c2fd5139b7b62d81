import { Readable } from 'node:stream';
import type { FastifyReply } from 'fastify';

/**
 * Streams `rows` as a JSON Lines download named `filename`, one presented row per line (a row
 * presented as undefined has none): any number of rows in the memory of one batch (the caller's
 * generator reads them a batch at a time).
 */
export function sendJsonLines<Row>(
  reply: FastifyReply,
  rows: AsyncIterable<Row>,
  present: (row: Row) => unknown,
  filename: string,
): FastifyReply {
  const lines = Readable.from(
    (async function* () {
      for await (const row of rows) {
        const line = present(row);
        if (line !== undefined) yield `${JSON.stringify(line)}\n`;
      }
    })(),
  );
  return reply
    .header('content-type', 'application/x-ndjson; charset=utf-8')
    .header('content-disposition', `attachment; filename="${filename}"`)
    .header('cache-control', 'no-store')
    .send(lines);
}
