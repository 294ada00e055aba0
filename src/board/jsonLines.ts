// The browser Board's stream from xos-mcp: one JSON message per line (blank lines keep the
// connection alive). Read the same way by the page (webview/browser.ts) and by the tests that
// speak for a page.

/** Calls `onMessage` with each JSON line of a streamed body; resolves when the stream ends. */
export async function readJsonLines(body: ReadableStream<Uint8Array>, onMessage: (message: Record<string, unknown>) => void): Promise<void> {
  // TextDecoderStream takes any BufferSource; a body's chunks are Uint8Arrays.
  const reader = body.pipeThrough(new TextDecoderStream() as unknown as TransformStream<Uint8Array, string>).getReader();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffered += value;
    let newline: number;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) onMessage(JSON.parse(line) as Record<string, unknown>);
    }
  }
}
