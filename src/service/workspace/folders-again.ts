/** Tries of a write whose folder a sibling's delete keeps removing (one more is nearly always enough). */
const ATTEMPTS = 5;

/**
 * Runs `write`, which opens a file in folders `makeFolders` made, and makes them again when they went in
 * between: a delete of the last other file in a folder removes the folder once empty (listings never show
 * empty folders), and a write of another file there does not wait for that delete. Only a failed open
 * (ENOENT) is tried again; anything else is the write's own answer.
 */
export async function withFoldersAgain<T>(
  makeFolders: () => Promise<unknown>,
  write: () => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      const { code, syscall } = error as NodeJS.ErrnoException;
      if (code !== 'ENOENT' || syscall !== 'open' || attempt === ATTEMPTS) throw error;
      await makeFolders();
    }
  }
}
