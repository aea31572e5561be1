/** What a sync says while its server cannot be reached, in the words the app and the CLI both show. */
export function serverUnreachableWords(server: string): string {
  return `Can't reach ${server}; your changes are kept and will be sent when it is back.`;
}
