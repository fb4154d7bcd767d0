import { hostCall } from "../wapc/index";

describe("wapc.hostCall", () => {
  it("returns the host's refusal as a value, not a trap", () => {
    const r = hostCall("kubewarden", "kubernetes", "get_resource", new Uint8Array(0));
    expect(r.ok).toBe(false);
    expect(r.value.length).toBe(0);
  });
});
