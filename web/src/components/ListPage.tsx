import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { type PageReader, usePagedList } from '../paged-list';
import { type Column, DataTable } from './DataTable';
import { NewNamedForm } from './NewNamedForm';
import { QueryView } from './states';

/**
 * A page of one resource: its title, a form to add one, then its records a page at a time with
 * loading, error and empty states. The list pages (Contexts, Skills, Workflows, Experiments) are this
 * with their own form, columns and empty text.
 */
export function ListPage<Row extends { guid: string }>({
  id,
  title,
  form,
  listKey,
  read,
  what,
  empty,
  columns,
  short = false,
}: {
  /** Names the page's heading for `aria-labelledby`. */
  id: string;
  title: string;
  form?: ReactNode;
  /** The resource's query key (queries/keys.ts): invalidating it reloads the list. */
  listKey: readonly unknown[];
  /** Reads a page of the list: `(page) => api('GET /v1/contexts', { query: page })`. */
  read: PageReader<Row>;
  /** "the Contexts": what a loading or error message names. */
  what: string;
  empty: ReactNode;
  columns: Column<Row>[];
  short?: boolean;
}) {
  const { query, pager } = usePagedList(listKey, read);
  return (
    <section aria-labelledby={`${id}-title`}>
      <header className="page-header">
        <h1 id={`${id}-title`}>{title}</h1>
      </header>
      {form}
      <QueryView query={query} what={what} isEmpty={(data) => data.total_count === 0} empty={empty}>
        {(data) => (
          <>
            <DataTable
              label={title}
              short={short}
              rows={data.data}
              rowKey={(row) => row.guid}
              columns={columns}
            />
            {pager}
          </>
        )}
      </QueryView>
    </section>
  );
}

/** The first column of a list page: the record's name, linking to its own page under `base`. */
export function nameColumn<Row extends { guid: string; name: string }>(base: string): Column<Row> {
  return {
    header: 'Name',
    cell: (row) => (
      <Link className="name" to={`${base}/${row.guid}`}>
        {row.name}
      </Link>
    ),
  };
}

/**
 * The list page of a record made from a name and a description (Contexts, datasets, snippets): the
 * form that creates one and opens its page under `base`, then the records, name first.
 */
export function NamedListPage<Row extends { guid: string; name: string }>({
  id,
  title,
  noun,
  base,
  listKey,
  create,
  read,
  empty,
  columns,
}: {
  id: string;
  title: string;
  /** "Context", "dataset": the form's label and button say "New …" and "Create …". */
  noun: string;
  /** Where a record's page is: `${base}/{guid}`. */
  base: string;
  listKey: readonly unknown[];
  create: (body: { name: string; description: string }) => Promise<{ guid: string }>;
  read: PageReader<Row>;
  empty: ReactNode;
  /** The columns after the name. */
  columns: Column<Row>[];
}) {
  return (
    <ListPage
      id={id}
      title={title}
      form={
        <NewNamedForm
          label={`New ${noun}`}
          save={create}
          listKey={listKey}
          pageBase={base}
          create={`Create ${noun}`}
        />
      }
      listKey={listKey}
      read={read}
      what={`the ${title}`}
      empty={empty}
      columns={[nameColumn(base), ...columns]}
    />
  );
}
