import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { useActionNames } from '../../../action-names';
import { api, type Generation } from '../../../api';
import { DataTable } from '../../../components/DataTable';
import { Empty, Failure, Loading, QueryView } from '../../../components/states';
import { usePagedList } from '../../../paged-list';
import { keys } from '../../../queries/keys';

/** What the person said in a turn: the last user message sent, or the input as given. */
function userText(record: Generation): string {
  const sent = record.full_prompt_sent?.findLast((message) => message.role === 'user');
  if (sent) return typeof sent.content === 'string' ? sent.content : JSON.stringify(sent.content);
  return typeof record.input === 'string' ? record.input : JSON.stringify(record.input);
}

/** The traces of a session's runs: each turn's run is a trace carrying the session. */
function SessionTraces({ session }: { session: string }) {
  const traces = useQuery({
    queryKey: keys.traces.page(JSON.stringify({ session }), 0),
    queryFn: () => api('GET /v1/traces', { query: { session, limit: 20 } }),
  });
  if (traces.isPending || traces.isError || traces.data.total_count === 0) return null;
  return (
    <p className="muted">
      Traces of its turns:{' '}
      {traces.data.data.map((trace, index) => (
        <span key={trace.trace_id}>
          {index > 0 && ', '}
          <Link to={`/traces/${trace.trace_id}`}>{new Date(trace.start_time).toLocaleTimeString()}</Link>
        </span>
      ))}
      {traces.data.total_count > traces.data.data.length && (
        <>
          {' '}
          and{' '}
          <Link to={`/traces?session=${session}`}>
            {traces.data.total_count - traces.data.data.length} more
          </Link>
        </>
      )}
    </p>
  );
}

/** A session's turns, oldest first, as a conversation. */
export function SessionPage() {
  const { guid = '' } = useParams();
  const session = useQuery({
    queryKey: keys.sessions.one(guid),
    queryFn: () => api('GET /v1/sessions/{guid}', { path: { guid } }),
  });
  const turns = useQuery({
    queryKey: keys.sessions.turns(guid),
    queryFn: () => api('GET /v1/sessions/{guid}/data', { path: { guid }, query: { limit: 100 } }),
  });
  const { name } = useActionNames();
  if (session.isPending || turns.isPending) return <Loading what="the session" />;
  if (session.isError) return <Failure what="the session" error={session.error} />;
  if (turns.isError) return <Failure what="the turns" error={turns.error} />;
  const ordered = [...turns.data.data].sort((a, b) => a.created_at.localeCompare(b.created_at));
  return (
    <section aria-labelledby="session-title">
      <header className="page-header">
        <div>
          <h1 id="session-title">{session.data.name ?? 'Session'}</h1>
          <p className="muted subtitle">
            {name(session.data.action)}
            {session.data.ext_user_id && ` · user ${session.data.ext_user_id}`} · {turns.data.total_count}{' '}
            {turns.data.total_count === 1 ? 'turn' : 'turns'}
          </p>
        </div>
      </header>
      {turns.data.total_count > ordered.length && (
        <p className="muted">
          The latest {ordered.length} of {turns.data.total_count} turns; every turn is in{' '}
          <Link to={`/generations?session=${guid}`}>Generations</Link>.
        </p>
      )}
      <SessionTraces session={guid} />
      {ordered.length === 0 ? (
        <p className="muted">No turns yet.</p>
      ) : (
        <ol className="conversation" aria-label="Turns">
          {ordered.map((turn) => (
            <li key={turn.guid}>
              <div className="bubble user">
                <span className="role">user</span>
                <p>{userText(turn)}</p>
              </div>
              <div className="bubble assistant">
                <span className="role">assistant</span>
                <p>{turn.output}</p>
                <Link className="muted" to={`/generations?open=${turn.guid}`}>
                  {new Date(turn.created_at).toLocaleString()}
                </Link>
              </div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

/** Multi-turn sessions, newest first. */
export default function SessionsPage() {
  const { query: sessions, pager } = usePagedList(keys.sessions.all, (query) =>
    api('GET /v1/sessions', { query }),
  );
  const { name } = useActionNames();
  return (
    <section aria-labelledby="sessions-title">
      <header className="page-header">
        <h1 id="sessions-title">Sessions</h1>
      </header>
      <QueryView
        query={sessions}
        what="the sessions"
        isEmpty={(data) => data.total_count === 0}
        empty={
          <Empty title="No sessions yet">
            <p>
              A session keeps a conversation's turns: create one with POST /v1/sessions and pass it to runs.
            </p>
          </Empty>
        }
      >
        {(data) => (
          <>
            <DataTable
              label="Sessions"
              rows={data.data}
              columns={[
                {
                  header: 'Session',
                  cell: (session) => (
                    <Link className="name" to={`/sessions/${session.guid}`}>
                      {session.name ?? session.guid}
                    </Link>
                  ),
                },
                { header: 'Action', cell: (session) => name(session.action) },
                {
                  header: 'User',
                  cell: (session) => session.ext_user_id ?? <span className="muted">—</span>,
                },
                { header: 'Last active', cell: (session) => new Date(session.updated_at).toLocaleString() },
              ]}
            />
            {pager}
          </>
        )}
      </QueryView>
    </section>
  );
}
