// Types for texts-dictionary.mjs (plain JS so the AssemblyScript transform can load it without tsx).

/** at most this many pieces: a piece reference is one byte, 0x80 + its index */
export const MAX_PIECES: number;
/** texts per entry of the segment's table */
export const TEXT_GROUP: number;
/** the shared pieces for `texts`, in the order they are numbered (each may refer to earlier ones),
 *  and the texts rewritten with the pieces' tokens */
export function choosePieces(texts: readonly string[]): { texts: string[]; pieces: string[] };
/** the dictionary as static data: a u16 offset table, then the encoded pieces */
export function encodeDictionary(pieces: readonly string[]): Buffer;
/** the passive segment for `texts` in slot order, the size of its table and whether its lengths
 *  take two bytes */
export function encodeTexts(
  texts: readonly string[],
  pieces: readonly string[],
): { segment: Buffer; tableBytes: number; wide: boolean };
/** the texts of a segment of `count` texts read with `dictionary` (the expander's reference) */
export function decodeTexts(segment: Buffer, count: number, dictionary: Buffer, wide?: boolean): string[];
