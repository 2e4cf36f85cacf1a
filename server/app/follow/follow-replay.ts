// What a late joiner of a follow session is sent: the frames of the presenter's latest run request, as
// they were relayed, kept up to a byte bound. Past the bound the request is "too big": its frames are let
// go at once (memory stays bounded) and a joiner is told so and shown only the presenter's next request.
// Frames are the very Buffers sent to the followers, so keeping them costs no copy.

export type ReplayState = 'none' | 'complete' | 'too-big';

export class FollowReplay {
  private requestId: string | null = null;
  private frames: Buffer[] = [];
  /** Sum of the kept frames' lengths; ≤ maxBytes. */
  private bytes = 0;
  private overflowed = false;

  constructor(private readonly maxBytes: number) {}

  /** A new request of the presenter: the last one is forgotten; `frame` (its follow-request) starts it. */
  begin(requestId: string, frame: Buffer): void {
    this.requestId = requestId;
    this.frames = [];
    this.bytes = 0;
    this.overflowed = false;
    this.add(requestId, frame);
  }

  /** Keeps a frame of the latest request; frames of earlier ones are not kept. */
  add(requestId: string, frame: Buffer): void {
    if (requestId !== this.requestId || this.overflowed) return;
    if (this.bytes + frame.length > this.maxBytes) {
      this.overflowed = true;
      this.frames = [];
      this.bytes = 0;
      return;
    }
    this.frames.push(frame);
    this.bytes += frame.length;
  }

  get state(): ReplayState {
    return this.requestId === null ? 'none' : this.overflowed ? 'too-big' : 'complete';
  }

  /** The request replayed (or too big to be); null before the first. */
  get latestRequestId(): string | null {
    return this.requestId;
  }

  /** The frames to send a joiner, in order; empty unless complete. */
  get kept(): readonly Buffer[] {
    return this.frames;
  }

  get keptBytes(): number {
    return this.bytes;
  }
}
