import { dispatchOperation, handleGuestCall, protocolVersionBytes } from "../kubewarden/guest";
import { bytesToString } from "../kubewarden/response";

function validateStub(payload: Uint8Array): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode("validate:" + payload.length.toString()));
}

function settingsStub(payload: Uint8Array): Uint8Array {
  return Uint8Array.wrap(String.UTF8.encode("settings:" + payload.length.toString()));
}

describe("dispatchOperation", () => {
  it("validate", () => {
    const r = dispatchOperation("validate", new Uint8Array(3), validateStub, settingsStub);
    expect(r.ok).toBe(true);
    expect(bytesToString(r.value)).toBe("validate:3");
  });
  it("validate_settings", () => {
    const r = dispatchOperation("validate_settings", new Uint8Array(2), validateStub, settingsStub);
    expect(r.ok).toBe(true);
    expect(bytesToString(r.value)).toBe("settings:2");
  });
  it('protocol_version answers the 4 bytes "v1"', () => {
    const r = dispatchOperation("protocol_version", new Uint8Array(0), validateStub, settingsStub);
    expect(r.ok).toBe(true);
    expect(r.value.length).toBe(4);
    expect(bytesToString(r.value)).toBe('"v1"');
    expect(protocolVersionBytes().length).toBe(4);
  });
  it("unknown operation is a guest error", () => {
    const r = dispatchOperation("validate-settings", new Uint8Array(0), validateStub, settingsStub);
    expect(r.ok).toBe(false);
    expect(r.error).toBe("unknown operation: validate-settings");
  });
});

describe("handleGuestCall", () => {
  it("returns 0 for an unknown operation (stubbed host delivers zero bytes)", () => {
    expect(handleGuestCall(0, 0, validateStub, settingsStub)).toBe(0);
    expect(handleGuestCall(3, 5, validateStub, settingsStub)).toBe(0);
  });
});
