// Why a run or request stopped when nobody cancelled it: it reached the server's hard bound on a
// request's duration (--max-run-seconds), or Redis stopped answering. Both are failures the person is
// told about in these words (an error, not "cancelled"), and both stop the run the way a Cancel does.

/** A request ran for the longest this server allows; the queue stops it with this as its reason. */
export class RequestTimeLimitError extends Error {
  override name = 'RequestTimeLimitError';
}

/** Redis did not answer a run (or its set-up) in time: the run's socket is destroyed, this is its error. */
export class RedisNotAnsweringError extends Error {
  override name = 'RedisNotAnsweringError';
}
