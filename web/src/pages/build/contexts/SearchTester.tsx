import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { type SearchMode, searchModes } from '../../../../../src/contract';
import { api, type Body } from '../../../api';
import { Field, FormError, submitWith } from '../../../components/Field';
import { ValueSelect } from '../../../components/ValueSelect';

class FilterError extends Error {
  readonly field = 'metadata_filter';
}

/** Tries a query against the Context as a run would retrieve: mode, filter, and the score of each hit. */
export function SearchTester({ contextGuid }: { contextGuid: string }) {
  const [prompt, setPrompt] = useState('');
  const [mode, setMode] = useState<SearchMode>('hybrid');
  const [count, setCount] = useState('5');
  const [filter, setFilter] = useState('');
  const search = useMutation({
    mutationFn: () => {
      let metadataFilter: Body<'POST /v1/contexts/{guid}/search'>['metadata_filter'];
      if (filter.trim()) {
        try {
          metadataFilter = JSON.parse(filter);
        } catch (error) {
          throw new FilterError(`metadata_filter: not valid JSON (${(error as Error).message})`);
        }
      }
      return api('POST /v1/contexts/{guid}/search', {
        path: { guid: contextGuid },
        body: {
          prompt,
          mode,
          number_of_results: Number(count),
          ...(metadataFilter !== undefined && { metadata_filter: metadataFilter }),
        },
      });
    },
  });
  const submit = submitWith(search);
  return (
    <section aria-labelledby="search-title">
      <h2 id="search-title" className="section-title">
        Search tester
      </h2>
      <form onSubmit={submit} aria-label="Search this Context">
        <div className="form-row">
          <Field label="Query" name="prompt" error={search.error}>
            <input value={prompt} required onChange={(event) => setPrompt(event.target.value)} />
          </Field>
          <Field label="Mode" name="mode" error={search.error}>
            <ValueSelect values={searchModes} value={mode} onChoose={setMode} />
          </Field>
          <Field label="Results" name="number_of_results" error={search.error}>
            <input
              type="number"
              min={1}
              max={100}
              value={count}
              onChange={(event) => setCount(event.target.value)}
            />
          </Field>
          <Field label="Metadata filter (JSON)" name="metadata_filter" error={search.error}>
            <input
              value={filter}
              placeholder='{"page": 2}'
              onChange={(event) => setFilter(event.target.value)}
            />
          </Field>
          <button type="submit" disabled={search.isPending}>
            Search
          </button>
        </div>
        <FormError error={search.error} fields={['prompt', 'mode', 'number_of_results', 'metadata_filter']} />
      </form>
      {search.data &&
        (search.data.length === 0 ? (
          <p className="muted">No document matches.</p>
        ) : (
          <ol className="hits" aria-label="Search results">
            {search.data.map((hit) => (
              <li key={hit.guid}>
                <span className="score" title="score">
                  {hit.score.toFixed(3)}
                </span>
                <p>{hit.content}</p>
                {hit.metadata && Object.keys(hit.metadata).length > 0 && (
                  <code className="muted">{JSON.stringify(hit.metadata)}</code>
                )}
              </li>
            ))}
          </ol>
        ))}
    </section>
  );
}
