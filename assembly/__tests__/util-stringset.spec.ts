// StringSet: content equality, and growing past the size it was made for.
import { StringSet } from "../util/stringset";

describe("StringSet", () => {
  it("adds each content once, whatever the string object", () => {
    const set = new StringSet(2);
    expect(set.add("a")).toBe(true);
    expect(set.add("a".repeat(1))).toBe(false);
    expect(set.add("")).toBe(true);
    expect(set.add("")).toBe(false);
    expect(set.has("a")).toBe(true);
    expect(set.has("b")).toBe(false);
  });

  it("keeps every member when more are added than it was sized for", () => {
    const set = new StringSet(1);
    for (let i = 0; i < 1000; i++) expect(set.add("n" + i.toString())).toBe(true);
    for (let i = 0; i < 1000; i++) expect(set.has("n" + i.toString())).toBe(true);
    expect(set.add("n999")).toBe(false);
    expect(set.has("n1000")).toBe(false);
  });
});
