import { hostCall, readInvocation } from "../wapc/index";

describe("wapc.hostCall", () => {
  it("returns the host's refusal as a value, not a trap", () => {
    const r = hostCall("kubewarden", "kubernetes", "get_resource", new Uint8Array(0));
    expect(r.ok).toBe(false);
    expect(r.value.length).toBe(0);
  });
});

describe("wapc.readInvocation", () => {
  it("keeps the asked room free before the payload, in the payload's own buffer", () => {
    const inv = readInvocation(8, 10, 64);
    expect(inv.payload.length).toBe(10);
    expect(inv.payload.byteOffset).toBe(64);
    expect(inv.payload.buffer.byteLength).toBe(74);
  });

  it("reads a negative length or room as none instead of trapping", () => {
    const inv = readInvocation(8, -2, -5); // -1 would read as "the whole buffer"
    expect(inv.payload.length).toBe(0);
    expect(inv.payload.byteOffset).toBe(0);
  });
});
