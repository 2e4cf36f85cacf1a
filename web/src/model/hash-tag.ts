// The {hash tag} of a Redis Cluster key, as Redis finds it: the part between the first "{" and the
// first "}" after it, when that part is not empty; then only that part is hashed, so keys sharing a tag
// share a slot. Returned as the key in three pieces so a label can emphasise the tag. Pure.

export interface TaggedKey {
  /** Before the tag, the tag with its braces, after it; tag is '' when the key has none (the whole key is hashed). */
  before: string;
  tag: string;
  after: string;
}

export function splitHashTag(key: string): TaggedKey {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  if (open < 0 || close < 0 || close === open + 1) return { before: key, tag: '', after: '' };
  return { before: key.slice(0, open), tag: key.slice(open, close + 1), after: key.slice(close + 1) };
}
