import { createInterface } from 'node:readline';
import { type Readable, Transform } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { z } from 'zod';
import { PayloadTooLargeError, ValidationError } from '../../../errors.js';
import { findUnstorableInput } from '../../../http/storable-input.js';
import { datasetItem, maximumItemsPerChange, type NewItem } from './schemas.js';

export type ImportFormat = 'jsonl' | 'csv';

/** The upload's format from its content type; undefined for one the import does not read. */
export function importFormatOf(contentType: string | undefined): ImportFormat | undefined {
  const type = String(contentType ?? '')
    .split(';')[0]!
    .trim()
    .toLowerCase();
  if (type === 'text/csv') return 'csv';
  if (['application/x-ndjson', 'application/jsonl', 'application/x-jsonlines'].includes(type)) return 'jsonl';
  return undefined;
}

/** The first problem zod found, as `field: reason`. */
function problemOf(error: z.ZodError): string {
  const issue = error.issues[0]!;
  const field = issue.path.join('.');
  return field ? `${field}: ${issue.message}` : issue.message;
}

/** A line of a file: an item, perhaps with the `guid` an export wrote (a re-import makes new items). */
const importedItem = datasetItem.extend({ guid: z.string().optional() });

function checked(line: number, value: unknown, items: NewItem[]): void {
  if (items.length >= maximumItemsPerChange)
    throw new ValidationError(`line ${line}`, `an import holds at most ${maximumItemsPerChange} items`);
  const parsed = importedItem.safeParse(value);
  if (!parsed.success) throw new ValidationError(`line ${line}`, problemOf(parsed.error));
  const { guid: _exported, ...item } = parsed.data;
  // What PostgreSQL cannot store (a NUL character, half a surrogate pair) is refused like a JSON body's.
  const unstorable = findUnstorableInput(item, `line ${line}`);
  if (unstorable) throw unstorable;
  items.push(item);
}

/**
 * Stops reading past `limit` bytes: an upload is read as it arrives, so Fastify's body limit does
 * not apply. The request itself is left whole (unpiped, not destroyed), so the error handler reads
 * and drops the rest and the client hears the 413 rather than a reset connection.
 */
function limited(stream: Readable, limit: number): Readable {
  let received = 0;
  const counted = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      received += chunk.length;
      if (received > limit) callback(new PayloadTooLargeError(`The upload is larger than ${limit} bytes`));
      else callback(null, chunk);
    },
  });
  stream.pipe(counted);
  return counted;
}

async function jsonLines(stream: Readable, items: NewItem[]): Promise<void> {
  let line = 0;
  for await (const read of createInterface({ input: stream, crlfDelay: Number.POSITIVE_INFINITY })) {
    line += 1;
    // Editors on Windows start a UTF-8 file with a byte-order mark: it is no part of the JSON.
    const text = line === 1 ? read.replace(/^\uFEFF/, '') : read;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ValidationError(`line ${line}`, 'not a JSON object');
    }
    checked(line, value, items);
  }
}

/**
 * A CSV's header names its columns: `input` (the input as text) or else one column per template
 * variable, `expected_output`, and `metadata.<key>` for metadata.
 */
function itemOfRow(row: Record<string, string>): Record<string, unknown> {
  const variables: Record<string, string> = {};
  const metadata: Record<string, string> = {};
  for (const [column, value] of Object.entries(row)) {
    if (column === 'input' || column === 'expected_output') continue;
    if (column.startsWith('metadata.')) metadata[column.slice('metadata.'.length)] = value;
    else variables[column] = value;
  }
  return {
    input: 'input' in row ? row.input : variables,
    expected_output: row.expected_output ? row.expected_output : null,
    ...(Object.keys(metadata).length > 0 && { metadata }),
  };
}

async function csvRows(stream: Readable, items: NewItem[]): Promise<void> {
  const parser = stream.pipe(
    parse({ columns: true, bom: true, skip_empty_lines: true, info: true, relax_column_count: false }),
  );
  stream.on('error', (error) => parser.destroy(error));
  let header: string[] | undefined;
  try {
    for await (const { record, info } of parser as AsyncIterable<{
      record: Record<string, string>;
      info: { lines: number };
    }>) {
      header ??= Object.keys(record);
      if (
        header.includes('input') &&
        header.some(
          (column) => !['input', 'expected_output'].includes(column) && !column.startsWith('metadata.'),
        )
      )
        throw new ValidationError(
          'line 1',
          'a CSV has either an input column or one column per variable, not both',
        );
      checked(info.lines, itemOfRow(record), items);
    }
  } catch (error) {
    if (error instanceof CsvError)
      throw new ValidationError(`line ${(error as CsvError & { lines?: number }).lines ?? 1}`, error.message);
    throw error;
  }
}

/**
 * Every item of an uploaded JSON Lines or CSV file, each checked as it is read: the first bad one
 * stops the import with a 400 naming its line, before anything is stored.
 */
export async function readItems(
  stream: Readable,
  format: ImportFormat,
  limitBytes: number,
): Promise<NewItem[]> {
  const items: NewItem[] = [];
  const source = limited(stream, limitBytes);
  if (format === 'jsonl') await jsonLines(source, items);
  else await csvRows(source, items);
  if (items.length === 0) throw new ValidationError('line 1', 'the file holds no item');
  return items;
}
