// Copying text for Copy link, Copy embed code and Share with the room. The Clipboard API exists only in a
// secure context (https, localhost); plain http on a LAN address has none, and a browser may refuse it (no
// permission, the page not focused). Each caller then selects the text for the user to copy with Ctrl+C.

/** Writes `text` to the clipboard: true when it did, false when there is none here or it was refused. */
export async function copyToClipboard(text: string): Promise<boolean> {
  const clipboard = window.isSecureContext ? navigator.clipboard : undefined;
  if (!clipboard?.writeText) return false;
  try {
    await clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
