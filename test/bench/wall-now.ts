/** Wall-clock milliseconds, comparable between the bench's process and its workers'. */
export const wallNow = (): number => performance.timeOrigin + performance.now();
