// String building in one allocation. Each `+` makes a new string, so `a + b + c + d` leaves two
// intermediates behind; on a fresh instance (policy-server makes one per request) every byte
// written is on a page that faults in, and messages are built from many short parts.

/** the parts joined, in one allocation (up to eight; unused parts are empty) */
export function concat(
  a: string,
  b: string,
  c: string = "",
  d: string = "",
  e: string = "",
  f: string = "",
  g: string = "",
  h: string = "",
): string {
  const la = (<usize>a.length) << 1,
    lb = (<usize>b.length) << 1,
    lc = (<usize>c.length) << 1,
    ld = (<usize>d.length) << 1;
  const le = (<usize>e.length) << 1,
    lf = (<usize>f.length) << 1,
    lg = (<usize>g.length) << 1,
    lh = (<usize>h.length) << 1;
  const out = changetype<usize>(__new(la + lb + lc + ld + le + lf + lg + lh, idof<string>()));
  let at = out;
  memory.copy(at, changetype<usize>(a), la);
  at += la;
  memory.copy(at, changetype<usize>(b), lb);
  at += lb;
  memory.copy(at, changetype<usize>(c), lc);
  at += lc;
  memory.copy(at, changetype<usize>(d), ld);
  at += ld;
  memory.copy(at, changetype<usize>(e), le);
  at += le;
  memory.copy(at, changetype<usize>(f), lf);
  at += lf;
  memory.copy(at, changetype<usize>(g), lg);
  at += lg;
  memory.copy(at, changetype<usize>(h), lh);
  return changetype<string>(out);
}

/** Whether `word` is one of the words of `list`, written `,a,b,c,` (one text instead of an array
 *  literal of texts, which costs code for each element); a word holding a comma is in no list. */
export function isListedWord(list: string, word: string): bool {
  return word.indexOf(",") < 0 && list.indexOf("," + word + ",") >= 0;
}
