// The texts' encoding in their passive segment (tools/wasm/texts-transform.mjs): a policy's ~330
// texts share many pieces ("must be ", "lmcache.ai/", " is not ", field names), so the segment
// carries a dictionary of up to 128 pieces and each text (and each piece) is a string of bytes:
//   0x00, 0x02-0x7f  that ASCII unit
//   0x01 lo hi       the UTF-16 unit hi:lo (any other unit: non-ASCII, or 0x01 itself)
//   0x80 + d         dictionary piece d (a piece refers only to pieces before it, so expanding ends)
// The pieces are chosen over every text of the module (known when the source is parsed) and live
// in its static data, read in place: expanding a piece costs loads, not a `memory.init` (which
// cost a fresh lmcache-injector evaluation ~8 µs when the pieces travelled in the segment). The
// passive segment holds the texts in use: a table, then their bodies. The table has one entry per
// group of TEXT_GROUP slots: the u16 offset of the group's first body (counted from the end of the
// table), then each text's length, one byte (two for every text when some body is 256 bytes or
// longer); the last group stops at its last text. A u16 offset per text cost ~300 bytes more per
// policy; finding a text now adds at most 15 lengths. The generated expander (`__cw_expand`) reads
// both; decodeTexts below is its reference, used by the tests.

export const MAX_PIECES = 128;
/** texts per entry of the segment's table */
export const TEXT_GROUP = 16;
const ESCAPE = 0x01;
const PIECE = 0x80;
// while pieces are chosen, a piece is a code unit of this private-use block inside the texts
const TOKEN_BASE = 0xe000;
// longest piece considered, and how many of the best-looking candidates get an exact count
const MAX_PIECE_UNITS = 40;
const EXACT_CANDIDATES = 40;

const isToken = (u) => u >= TOKEN_BASE && u < TOKEN_BASE + MAX_PIECES;

/** bytes a symbol string takes encoded */
function encodedLength(s) {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    n += isToken(u) || (u < 0x80 && u !== ESCAPE) ? 1 : 3;
  }
  return n;
}

/** non-overlapping occurrences of `piece` in `texts` */
function occurrences(texts, piece) {
  let n = 0;
  for (const t of texts) for (let i = t.indexOf(piece); i >= 0; i = t.indexOf(piece, i + piece.length)) n++;
  return n;
}

/** Chooses the pieces greedily, each time the one that saves most bytes (its uses shortened, minus
 *  its own body and table entry). Deterministic: ties go to the smaller string. Returns the texts
 *  and the pieces as symbol strings (a piece's own uses of earlier pieces are tokens). */
export function choosePieces(texts) {
  for (const t of texts)
    for (let i = 0; i < t.length; i++)
      if (isToken(t.charCodeAt(i)))
        throw new Error(
          `texts-dictionary: a text uses U+${t.charCodeAt(i).toString(16).toUpperCase()}, which the encoder reserves`,
        );
  let current = texts.slice();
  const pieces = [];
  while (pieces.length < MAX_PIECES) {
    const counts = new Map();
    for (const t of current)
      for (let i = 0; i < t.length; i++)
        for (let l = 2; l <= MAX_PIECE_UNITS && i + l <= t.length; l++) {
          const s = t.slice(i, i + l);
          counts.set(s, (counts.get(s) ?? 0) + 1);
        }
    const candidates = [];
    for (const [s, n] of counts) {
      if (n < 2) continue;
      const c = encodedLength(s);
      const gain = n * (c - 1) - c - 2;
      if (gain > 0) candidates.push({ s, c, gain });
    }
    candidates.sort((a, b) => b.gain - a.gain || (a.s < b.s ? -1 : a.s > b.s ? 1 : 0));
    let best;
    let bestGain = 0;
    for (const { s, c } of candidates.slice(0, EXACT_CANDIDATES)) {
      const gain = occurrences(current, s) * (c - 1) - c - 2;
      if (gain > bestGain || (gain === bestGain && best !== undefined && s < best)) {
        bestGain = gain;
        best = s;
      }
    }
    if (best === undefined) break;
    const token = String.fromCharCode(TOKEN_BASE + pieces.length);
    pieces.push(best);
    current = current.map((t) => t.split(best).join(token));
  }
  return { texts: current, pieces };
}

/** a symbol string as bytes */
function encodeSymbols(s) {
  const out = [];
  for (let i = 0; i < s.length; i++) {
    const u = s.charCodeAt(i);
    if (isToken(u)) out.push(PIECE + (u - TOKEN_BASE));
    else if (u < 0x80 && u !== ESCAPE) out.push(u);
    else out.push(ESCAPE, u & 0xff, u >> 8);
  }
  return Buffer.from(out);
}

/** `texts` with `pieces` put in, in the order they were chosen (as choosePieces did) */
function withPieces(texts, pieces) {
  return texts.map((t) => pieces.reduce((s, piece, d) => s.split(piece).join(String.fromCharCode(TOKEN_BASE + d)), t));
}

/** u16 offsets (one per body, then the end) counted from `base`, followed by the bodies */
function tableAndBodies(bodies, base) {
  const table = Buffer.alloc((bodies.length + 1) * 2);
  let offset = base(table.length);
  bodies.forEach((b, k) => {
    table.writeUInt16LE(offset, k * 2);
    offset += b.length;
    if (offset > 0xffff) throw new Error("texts-dictionary: the encoded texts exceed 64 KiB");
  });
  table.writeUInt16LE(offset, bodies.length * 2);
  return Buffer.concat([table, ...bodies]);
}

/** The dictionary as the static data the expander reads in place: entry d's offsets at 2d, both
 *  counted from the dictionary's start. */
export function encodeDictionary(pieces) {
  return tableAndBodies(pieces.map(encodeSymbols), (tableBytes) => tableBytes);
}

/** The passive segment for `texts` (slot order) encoded with `pieces`, the size of its table and
 *  whether its lengths are two bytes each. */
export function encodeTexts(texts, pieces) {
  const bodies = withPieces(texts, pieces).map(encodeSymbols);
  const wide = bodies.some((b) => b.length > 0xff);
  const entries = [];
  let offset = 0;
  bodies.forEach((b, k) => {
    if (k % TEXT_GROUP === 0) entries.push([offset & 0xff, offset >> 8]);
    entries[entries.length - 1].push(...(wide ? [b.length & 0xff, b.length >> 8] : [b.length]));
    offset += b.length;
    if (offset > 0xffff) throw new Error("texts-dictionary: the encoded texts exceed 64 KiB");
  });
  const table = Buffer.from(entries.flat());
  const longest = bodies.reduce((n, b) => Math.max(n, b.length), 0);
  return { segment: Buffer.concat([table, ...bodies]), tableBytes: table.length, wide, longest };
}

/** The texts of a segment of `count` texts (`wide`: two-byte lengths), with the dictionary
 *  `dictionary` (what the generated expander produces). */
export function decodeTexts(segment, count, dictionary, wide = false) {
  const lengthBytes = wide ? 2 : 1;
  const entryBytes = 2 + TEXT_GROUP * lengthBytes;
  const lengthOf = (k) => {
    const at = Math.floor(k / TEXT_GROUP) * entryBytes + 2 + (k % TEXT_GROUP) * lengthBytes;
    return wide ? segment.readUInt16LE(at) : segment[at];
  };
  const groups = Math.ceil(count / TEXT_GROUP);
  const tableBytes =
    count === 0 ? 0 : (groups - 1) * entryBytes + 2 + (count - (groups - 1) * TEXT_GROUP) * lengthBytes;
  const expand = (bytes, start, end, units) => {
    for (let i = start; i < end; i++) {
      const c = bytes[i];
      if (c >= PIECE) {
        const d = c - PIECE;
        expand(dictionary, dictionary.readUInt16LE(d * 2), dictionary.readUInt16LE(d * 2 + 2), units);
      } else if (c === ESCAPE) {
        units.push(bytes.readUInt16LE(i + 1));
        i += 2;
      } else units.push(c);
    }
    return units;
  };
  const texts = [];
  for (let k = 0; k < count; k++) {
    let offset = segment.readUInt16LE(Math.floor(k / TEXT_GROUP) * entryBytes);
    for (let j = k - (k % TEXT_GROUP); j < k; j++) offset += lengthOf(j);
    const start = tableBytes + offset;
    texts.push(String.fromCharCode(...expand(segment, start, start + lengthOf(k), [])));
  }
  return texts;
}
