// Files made in the browser handed to the user as downloads (nothing is sent anywhere).

/** Hands text to the browser as a downloaded file. */
export function saveText(text: string, fileName: string, type: string): void {
  saveBlob(new Blob([text], { type }), fileName);
}

/** Hands a blob to the browser as a downloaded file, through a blob URL revoked once the click is handled. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked after the click has been handled so the download can start.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
