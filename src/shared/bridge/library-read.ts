/**
 * The most the host reads of one library file for the page (a preview, an attachment): the bytes cross
 * the bridge as base64, in one message.
 */
export const libraryReadBytesMax = 20 * 1024 * 1024;
