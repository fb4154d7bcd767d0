// A spec file of its own: releasing a call's memory marks the instance as reused for good.
import { JsonValue, parseJson } from "../json/index";
import { bytesToString, mutate } from "../kubewarden/response";
import { isFirstCall, releaseCallMemory } from "../wapc/index";

function requestWithRoom(text: string, room: i32): Uint8Array {
  const utf8 = String.UTF8.encode(text);
  const buffer = new ArrayBuffer(room + utf8.byteLength);
  memory.copy(changetype<usize>(buffer) + <usize>room, changetype<usize>(utf8), <usize>utf8.byteLength);
  return Uint8Array.wrap(buffer, room, utf8.byteLength);
}

// long enough that the envelope's writes, which reserve 3 bytes a unit, fit over it
const POD = '{"kind":"Pod","metadata":{"name":"a-pod-whose-name-is-long-enough"}}';

function respondOver(request: Uint8Array): Uint8Array {
  const parsed = parseJson(request).value;
  const pod = parsed !== null ? parsed : JsonValue.object();
  pod.set("added", JsonValue.bool(true));
  return mutate(pod).toBytesOver(request);
}

describe("toBytesOver on a reused instance", () => {
  it("the first call writes over its request, a call after a released one builds its own buffer", () => {
    expect(isFirstCall()).toBe(true);
    const first = requestWithRoom(POD, 64);
    const out1 = respondOver(first);
    expect(changetype<usize>(out1.buffer)).toBe(changetype<usize>(first.buffer));
    releaseCallMemory();
    expect(isFirstCall()).toBe(false);
    const second = requestWithRoom(POD, 64);
    const out2 = respondOver(second);
    expect(bytesToString(out2)).toBe(
      '{"accepted":true,"mutated_object":{"kind":"Pod","metadata":{"name":"a-pod-whose-name-is-long-enough"},"added":true}}',
    );
    expect(changetype<usize>(out2.buffer) != changetype<usize>(second.buffer)).toBe(true);
    expect(bytesToString(Uint8Array.wrap(second.buffer, 64, second.length))).toBe(POD);
  });
});
