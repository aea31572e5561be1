import { execFile } from 'node:child_process';

export interface ProgramResult {
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell, with a time limit; rejects with its stderr when it fails. */
export function runProgram(file: string, args: string[], timeoutMs: number): Promise<ProgramResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024, killSignal: 'SIGKILL' },
      (error, stdout, stderr) => {
        if (error) {
          const why = error.killed
            ? `timed out after ${timeoutMs} ms`
            : (stderr.trim().split('\n').pop() ?? error.message);
          reject(new Error(`${file.split('/').pop()} failed: ${why}`));
          return;
        }
        resolve({ stdout, stderr });
      },
    );
  });
}
