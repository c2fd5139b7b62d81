import type { ReactNode } from 'react';

export type Column<Row> = {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Figures: right-aligned, header and cells alike. */
  numeric?: boolean;
};

type TableProps<Row> = {
  label: string;
  columns: Column<Row>[];
  rows: Row[];
  rowClass?: (row: Row) => string | undefined;
  /** A table among other sections: a lower frame. */
  short?: boolean;
};

/**
 * A table of records with a sticky header in a scrolling frame; one row per record. A record with a
 * GUID is keyed by it (React's key); a row without one says what keys it, and `tsc` asks for it.
 */
export function DataTable<Row extends { guid: string }>(
  props: TableProps<Row> & { rowKey?: (row: Row) => string },
): ReactNode;
export function DataTable<Row>(props: TableProps<Row> & { rowKey: (row: Row) => string }): ReactNode;
export function DataTable<Row>({
  label,
  columns,
  rows,
  rowKey = (row) => (row as { guid: string }).guid,
  rowClass,
  short = false,
}: TableProps<Row> & { rowKey?: (row: Row) => string }) {
  return (
    // The frame scrolls when the table is taller or wider than it: focusable, so a keyboard scrolls it
    // even when no cell holds a control (WCAG 2.1.1); named, since it is a region.
    <section
      className={short ? 'table-frame short' : 'table-frame'}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus
      tabIndex={0}
      aria-label={`${label} (scrolls)`}
    >
      <table aria-label={label}>
        <thead>
          <tr>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed for a table
              <th scope="col" key={index} className={column.numeric ? 'number' : undefined}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)} className={rowClass?.(row)}>
              {columns.map((column, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed for a table
                <td key={index} className={column.numeric ? 'number' : undefined}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
