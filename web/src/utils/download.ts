// Saving a file the console received (an export, a template) under a name.

export function downloadBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  // The browser reads the URL asynchronously after the click; revoke it only later.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file answered as base64 inside a JSON envelope. */
export function downloadBase64(fileName: string, base64: string, type = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'): void {
  const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  downloadBlob(new Blob([bytes], { type }), fileName);
}
