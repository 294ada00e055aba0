// The data source could not be asked: down, too slow, or its answer broken. An expected
// failure the person can wait out, unlike a bug; the tools say so and what to do.

export class BackendUnavailableError extends Error {
  /** The HTTP status the server answered with, when it answered at all. */
  readonly httpStatus?: number;
  constructor(message: string, httpStatus?: number) {
    super(message);
    this.name = 'BackendUnavailableError';
    this.httpStatus = httpStatus;
  }

  /** 429 and 503 say the request was not processed: a write certainly did not happen. */
  get certainlyNotProcessed(): boolean {
    return this.httpStatus === 429 || this.httpStatus === 503;
  }
}

/** The agent's reply when `tool` could not reach the data source. */
export function unavailableReply(tool: string, error: BackendUnavailableError): string {
  return `${capitalised(error.message)}. Nothing was shown or changed. Tell the person (the XOS item in VS Code's status bar shows the connection) `
    + `and call ${tool} again when the server answers.`;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1).replace(/\.$/, '');
}
