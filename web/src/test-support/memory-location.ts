// For tests: an address bar in memory for the page store (url/page-url.ts), so a view test sets and reads
// the page's URL without touching jsdom's. navigate() is a user editing the URL (listeners hear it, as
// hashchange); replace() is a script replacing the URL, which fires no event; writes counts the store's.
import type { PageLocation } from '../url/page-location.ts';

const ORIGIN = 'http://localhost:3000';

export class MemoryLocation implements PageLocation {
  private url: URL;
  private readonly listeners = new Set<() => void>();
  /** The hashes the store wrote, in order. */
  readonly writes: string[] = [];

  /** `address`: a path with query and hash ('/?trace=/a.json#n=10') or just a hash ('#n=10'). */
  constructor(address = '/') {
    this.url = new URL(address, `${ORIGIN}/`);
  }

  hash(): string {
    return this.url.hash;
  }

  search(): string {
    return this.url.search;
  }

  href(): string {
    return this.url.href;
  }

  replaceHash(hash: string): void {
    this.url.hash = hash;
    this.writes.push(this.url.hash);
  }

  listen(onNavigate: () => void): () => void {
    this.listeners.add(onNavigate);
    return () => this.listeners.delete(onNavigate);
  }

  /** A user edits the URL or follows a #link: the hash changes and listeners hear it. */
  navigate(address: string): void {
    this.url = new URL(address, this.url.href);
    for (const listener of [...this.listeners]) listener();
  }

  /** A script replaces the URL in place: the hash changes and nobody is told. */
  replace(address: string): void {
    this.url = new URL(address, this.url.href);
  }
}
