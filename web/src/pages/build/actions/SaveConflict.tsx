import { useQuery } from '@tanstack/react-query';
import { type Action, api } from '../../../api';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';
import { DiffView } from './DiffView';
import type { VersionContent } from './version-diff';

/**
 * Someone saved the Action while this person edited it: the save was refused (409) and nothing was
 * overwritten. Shows who saved which version, how it differs from this draft, and the two ways on.
 */
export function SaveConflict({
  action,
  latestVersion,
  draft,
  onKeepMine,
  onTakeTheirs,
}: {
  action: Action;
  latestVersion: number;
  draft: VersionContent;
  onKeepMine: (latestVersion: number) => void;
  onTakeTheirs: () => void;
}) {
  const theirs = useQuery({
    queryKey: [...keys.actions.versions(action.guid), 'conflict', latestVersion],
    queryFn: () =>
      api('GET /v1/actions/{guid}/versions', { path: { guid: action.guid }, query: { limit: 1 } }),
  });
  // Who saved it: a member's name where this person may read the members, otherwise "Someone".
  const members = useQuery({
    queryKey: keys.members.all,
    queryFn: () => api('GET /v1/members', { query: { limit: 1000 } }),
    retry: false,
  });
  const saved = theirs.data?.data[0];
  const saver = members.data?.data.find((member) => member.user.guid === saved?.saved_by_id)?.user;
  const who = saver ? saver.name || saver.email : 'Someone';
  return (
    <div className="conflict" role="alert" aria-labelledby="conflict-title">
      <h2 id="conflict-title" className="conflict-title">
        {who} saved version {latestVersion} while you were editing
      </h2>
      <p>Your changes are not saved yet, and theirs are not overwritten. Compare them, then choose.</p>
      {theirs.isPending ? (
        <Loading what={`version ${latestVersion}`} />
      ) : theirs.isError ? (
        <Failure what={`version ${latestVersion}`} error={theirs.error} />
      ) : !saved ? (
        <p className="muted">The Action has no saved version to compare with.</p>
      ) : (
        <DiffView
          before={saved}
          after={draft}
          labels={[`Version ${saved.version} (saved)`, 'Your changes']}
        />
      )}
      <div className="actions-row">
        <button type="button" onClick={() => onKeepMine(latestVersion)}>
          Save mine as version {latestVersion + 1}
        </button>
        <button type="button" className="secondary" onClick={onTakeTheirs}>
          Discard mine and open version {latestVersion}
        </button>
      </div>
    </div>
  );
}
