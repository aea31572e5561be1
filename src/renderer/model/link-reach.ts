/** A link to this computer's own address (127.0.0.1, localhost, ::1) opens nowhere else. */
export function onlyThisComputer(url: string): boolean {
  try {
    const host = new URL(url).hostname.replace(/^\[|\]$/g, '');
    return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
  } catch {
    return false;
  }
}
