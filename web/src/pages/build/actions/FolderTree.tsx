import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, type Folder } from '../../../api';
import { Failure, Loading } from '../../../components/states';
import { keys } from '../../../queries/keys';

/** The link that lists one folder's Actions (and those below it); the root is `""`. */
export function folderLink(folder: string): string {
  return folder === '' ? '/actions' : `/actions?folder=${encodeURIComponent(folder)}`;
}

const parentOf = (path: string) => path.slice(0, Math.max(0, path.lastIndexOf('/')));
const lastSegment = (path: string) => path.slice(path.lastIndexOf('/') + 1);

function Branch({
  parent,
  byParent,
  current,
}: {
  parent: string;
  byParent: Map<string, Folder[]>;
  current: string;
}) {
  const children = byParent.get(parent) ?? [];
  if (children.length === 0) return null;
  return (
    <ul>
      {children.map((folder) => (
        <li key={folder.path}>
          <Link
            to={folderLink(folder.path)}
            aria-current={folder.path === current ? 'page' : undefined}
            title={`${folder.action_count} Action${folder.action_count === 1 ? '' : 's'} in ${folder.path} and below`}
          >
            {lastSegment(folder.path)} <span className="count">{folder.action_count}</span>
          </Link>
          <Branch parent={folder.path} byParent={byParent} current={current} />
        </li>
      ))}
    </ul>
  );
}

/** The workspace's folders as a tree beside the Actions list; the chosen one is `current`. */
export function FolderTree({ current }: { current: string }) {
  const folders = useQuery({ queryKey: keys.folders.all, queryFn: () => api('GET /v1/folders') });
  const byParent = new Map<string, Folder[]>();
  for (const folder of folders.data ?? []) {
    const siblings = byParent.get(parentOf(folder.path)) ?? [];
    siblings.push(folder);
    byParent.set(parentOf(folder.path), siblings);
  }
  return (
    <nav className="folder-tree" aria-label="Folders">
      <Link to={folderLink('')} aria-current={current === '' ? 'page' : undefined}>
        All Actions
      </Link>
      {folders.isPending ? (
        <Loading what="the folders" />
      ) : folders.isError ? (
        <Failure what="the folders" error={folders.error} />
      ) : folders.data.length === 0 ? (
        <p className="muted">No folders yet: give an Action a folder to file it.</p>
      ) : (
        <Branch parent="" byParent={byParent} current={current} />
      )}
    </nav>
  );
}

/** Where a folder is: All Actions › support › billing, each a link but the last. */
export function Breadcrumbs({ folder, last }: { folder: string; last?: string }) {
  const parts = folder === '' ? [] : folder.split('/');
  const trail = parts.map((part, index) => ({ label: part, path: parts.slice(0, index + 1).join('/') }));
  return (
    <nav aria-label="Breadcrumb" className="breadcrumbs">
      <ol>
        <li>
          <Link to={folderLink('')}>All Actions</Link>
        </li>
        {trail.map((step, index) => (
          <li key={step.path}>
            {index === trail.length - 1 && last === undefined ? (
              <span aria-current="page">{step.label}</span>
            ) : (
              <Link to={folderLink(step.path)}>{step.label}</Link>
            )}
          </li>
        ))}
        {last !== undefined && (
          <li>
            <span aria-current="page">{last}</span>
          </li>
        )}
      </ol>
    </nav>
  );
}
