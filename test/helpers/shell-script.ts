import { spawn } from 'node:child_process';

/**
 * Runs a shell script to its end in `directory`, as a reader pastes a doc's block into a shell;
 * answers its output (stdout and stderr), or throws with it when it fails.
 */
export function runShellScript(
  script: string,
  directory: string,
  environment: Record<string, string> = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script], { cwd: directory, env: { ...process.env, ...environment } });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(output) : reject(new Error(`exit ${code}:\n${output}`)),
    );
  });
}
