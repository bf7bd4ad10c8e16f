/**
 * The connection to the database broke during a statement (the server restarted, an administrator ended the
 * session, the network dropped it), or the server did not answer in time and the connection was cut. The engine
 * raises it; `writeTransaction` decides whether the work may run again, and the engine's error mapping words it.
 */
export class ConnectionLostError extends Error {
  constructor(
    message: string,
    cause: unknown,
    /** `lost`: the connection broke; `timeout`: the server did not answer within the query timeout. */
    readonly kind: 'lost' | 'timeout',
    /**
     * A write may or may not have been committed: the connection broke after a COMMIT (or a statement outside a
     * transaction that writes) was sent and before its answer came back. Such work must not be repeated blindly.
     */
    readonly outcomeUnknown: boolean,
  ) {
    super(message, { cause });
    this.name = 'ConnectionLostError';
  }

  /** Nothing of the work was committed and the database answered before: it may run once more on a new connection. */
  get safeToRepeat(): boolean {
    return this.kind === 'lost' && !this.outcomeUnknown;
  }
}
