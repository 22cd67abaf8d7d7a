import { spawn } from 'node:child_process';
import { PROJECT_ROOT } from '../../src/server/config';

/**
 * Runs Node with `args` in the project, `env` added to this process's: its exit code, what it
 * wrote to standard error, and everything it wrote (both streams, in order).
 */
export function runNode(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; stderr: string; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: PROJECT_ROOT,
      env: { ...process.env, ...env },
    });
    let stderr = '';
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      out += chunk.toString();
    });
    child.on('close', (code) => resolve({ code, stderr, out }));
  });
}
