// A run or sweep stopped on request (Cancel, a closed tab): not a failure, and reported as such.
export class RunCancelledError extends Error {
  override name = 'RunCancelledError';
}
