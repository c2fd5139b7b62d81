import type { ReactNode } from 'react';
import { useMe } from '../queries/me';

const what: Record<string, string> = {
  write: 'change the workspace’s configuration',
  deploy: 'deploy versions',
  run: 'run Actions, Workflows and Experiments',
  manage: 'manage the workspace',
  feedback: 'record feedback',
};

/**
 * Whether the signed-in principal holds `right`, and when not, the reason to show beside the
 * control it disables. The service's `403` stays the authority: this only keeps a person from
 * trying what would be refused. While `/v1/me` loads, controls stay enabled (the service decides).
 */
export function useGate(right: string): { allowed: boolean; reason: string | undefined; note: ReactNode } {
  const me = useMe();
  if (!me.data || me.data.rights.includes(right)) return { allowed: true, reason: undefined, note: null };
  const reason = `A ${me.data.role} may not ${what[right] ?? right}.`;
  return { allowed: false, reason, note: <span className="muted denied">{reason}</span> };
}
