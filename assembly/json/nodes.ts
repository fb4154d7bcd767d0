// The nodes handed out for one document's values. A container whose child list is not built
// answers get/has/at/keyAt/size from the records and creates only the node it returns; this table
// keeps that node unique (the same member gives the same live node), and the child list, built on
// the first mutation or full iteration, reuses it. Generic over the node type `N` so that the
// table, like the writer, depends only on the document: value.ts instantiates it with JsonValue.
import { JsonDoc } from "./document";

/** value indices per page of the node table: a table of all of them, zeroed on the first node of
 *  a 1.5 MB document, cost as much as the rules that read a few dozen values; pages of 64 (256
 *  bytes), not 256: a 1 KB page for every small host answer was one 4 KiB page more per evaluation */
export const NODE_PAGE_BITS: i32 = 6;
export const NODE_PAGE_MASK: i32 = (1 << NODE_PAGE_BITS) - 1;

/** A document and the nodes handed out for its values so far (a copy of a clean node is a new
 *  identity: a new NodeDoc over the same records). */
export class NodeDoc<N> extends JsonDoc {
  /** the handed-out nodes by value index, in pages made on first use */
  nodes: StaticArray<StaticArray<N | null> | null> | null = null;

  /** the node already handed out for value `i`, or null */
  existing(i: i32): N | null {
    const pages = this.nodes;
    if (pages === null || (<u32>i) >>> NODE_PAGE_BITS >= <u32>pages.length) return null;
    const page = unchecked(pages[i >>> NODE_PAGE_BITS]);
    return page !== null ? unchecked(page[i & NODE_PAGE_MASK]) : null;
  }

  /** the page that holds value `i`'s node, made on first use; null when `i` is not a value index */
  pageFor(i: i32): StaticArray<N | null> | null {
    let pages = this.nodes;
    if (pages === null) {
      pages = new StaticArray<StaticArray<N | null> | null>((this.table.count + NODE_PAGE_MASK) >>> NODE_PAGE_BITS);
      this.nodes = pages;
    }
    if ((<u32>i) >>> NODE_PAGE_BITS >= <u32>pages.length) return null;
    let page = unchecked(pages[i >>> NODE_PAGE_BITS]);
    if (page === null) {
      page = new StaticArray<N | null>(NODE_PAGE_MASK + 1);
      unchecked((pages[i >>> NODE_PAGE_BITS] = page));
    }
    return page;
  }
}

/** whether a node was handed out for value `i` of `doc` (`doc.existing(i) !== null`), inlined
 *  into the record walks, which ask it once per item */
// @ts-ignore: decorator
@inline
export function handedOut<N>(doc: NodeDoc<N>, i: i32): bool {
  return doc.nodes !== null && doc.existing(i) !== null;
}
