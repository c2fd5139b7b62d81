import { execFileSync, spawnSync } from 'node:child_process';

/** Podman as CI runs it: with runc, since crun refuses this machine's cgroup setup. */
export const podmanCommand = ['podman', '--runtime', 'runc'] as const;

/** Runs a podman command and answers its output, trimmed; throws when it fails. */
export function podman(...args: string[]): string {
  return execFileSync(podmanCommand[0], [...podmanCommand.slice(1), ...args], { encoding: 'utf8' }).trim();
}

/** Runs a podman command whose failure is an answer (a container already gone, a failed check). */
export function podmanSucceeds(...args: string[]): boolean {
  return spawnSync(podmanCommand[0], [...podmanCommand.slice(1), ...args], { stdio: 'ignore' }).status === 0;
}
