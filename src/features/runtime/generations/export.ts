import { chatExample } from '../../../core/fine-tuning.js';
import { presentGeneration } from './presenters.js';
import type { Generation } from './service.js';

export type ExportFormat = 'jsonl' | 'csv' | 'openai_chat';

/** The CSV's columns: the flat fields of a record; input and cost as JSON text. */
const csvColumns = [
  'guid',
  'created_at',
  'action',
  'version',
  'environment',
  'session',
  'experiment',
  'source',
  'model_provider',
  'model',
  'num_input_tokens',
  'num_output_tokens',
  'latency_ms',
  'cost',
  'input',
  'output',
] as const;

/**
 * One CSV cell (RFC 4180 quoting). A cell a spreadsheet would read as a formula (=, +, -, @, tab,
 * carriage return first) gets a leading apostrophe: prompts are user text, and an exported log must
 * not run it when someone opens the file.
 */
function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  let text =
    typeof value === 'string' ? value : typeof value === 'number' ? String(value) : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** The lines of an export, produced as the rows are read: nothing holds the whole set in memory. */
export async function* exportLines(
  rows: AsyncIterable<Generation>,
  format: ExportFormat,
): AsyncGenerator<string> {
  if (format === 'csv') yield `${csvColumns.join(',')}\r\n`;
  for await (const row of rows) {
    if (format === 'openai_chat') {
      // The prompt the model was sent and what it answered: an example to fine-tune on.
      const example = chatExample(row.fullPromptSent, row.output);
      if (example) yield `${JSON.stringify(example)}\n`;
      continue;
    }
    const record = presentGeneration(row);
    yield format === 'jsonl'
      ? `${JSON.stringify(record)}\n`
      : `${csvColumns.map((column) => csvCell(record[column])).join(',')}\r\n`;
  }
}
