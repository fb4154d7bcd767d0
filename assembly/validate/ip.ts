// IP literals with Go `net.ParseIP` semantics (Go ≥ 1.22, which delegates to `netip.ParseAddr`
// and refuses zones): dotted-quad IPv4 without leading zeros, RFC 4291 IPv6 text with at most one
// `::` and an optional trailing dotted quad; no brackets, zones or ports.
import { hexDigitValue, isAsciiDigit } from "./chars";

/** A parsed address as 16 bytes (IPv4 in its IPv4-mapped form, like Go's `net.IP`). */
export class IpAddress {
  constructor(
    public ok: bool,
    public bytes: Uint8Array,
    public isV4Literal: bool,
  ) {}

  /** Go `IP.IsUnspecified`: `0.0.0.0` (also IPv4-mapped `::ffff:0.0.0.0`) or `::`. */
  isUnspecified(): bool {
    if (!this.ok || this.bytes.length != 16) return false;
    for (let i = 0; i < 16; i++) {
      if (i == 10 || i == 11) continue;
      if (this.bytes[i] != 0) return false;
    }
    const b10 = this.bytes[10];
    const b11 = this.bytes[11];
    return (b10 == 0 && b11 == 0) || (b10 == 0xff && b11 == 0xff);
  }
}

function invalidIp(): IpAddress {
  return new IpAddress(false, new Uint8Array(16), false);
}

/** Parses `s[start, end)` as a dotted quad into `out[at..at+4)`; Go `parseIPv4Fields`. */
function parseIpv4Into(s: string, start: i32, end: i32, out: Uint8Array, at: i32): bool {
  if (at < 0 || at + 4 > out.length) return false;
  let val = 0;
  let digits = 0;
  let pos = 0;
  for (let i = start; i < end; i++) {
    const c = s.charCodeAt(i);
    if (isAsciiDigit(c)) {
      if (digits == 1 && val == 0) return false; // leading zero
      val = val * 10 + (c - 0x30);
      digits++;
      if (val > 255) return false;
    } else if (c == 0x2e) {
      if (i == start || i == end - 1 || s.charCodeAt(i - 1) == 0x2e) return false;
      if (pos == 3) return false;
      out[at + pos] = <u8>val;
      pos++;
      val = 0;
      digits = 0;
    } else {
      return false;
    }
  }
  if (pos < 3 || digits == 0) return false;
  out[at + 3] = <u8>val;
  return true;
}

function parseIpv4(s: string): IpAddress {
  const bytes = new Uint8Array(16);
  bytes[10] = 0xff;
  bytes[11] = 0xff;
  if (!parseIpv4Into(s, 0, s.length, bytes, 12)) return invalidIp();
  return new IpAddress(true, bytes, true);
}

/** Go `netip.parseIPv6` without zone support (a `%` makes the literal invalid for `net.ParseIP`). */
function parseIpv6(s: string): IpAddress {
  const len = s.length;
  if (s.indexOf("%") >= 0) return invalidIp();
  const ip = new Uint8Array(16);
  let ellipsis = -1;
  let p = 0;
  if (len >= 2 && s.charCodeAt(0) == 0x3a && s.charCodeAt(1) == 0x3a) {
    ellipsis = 0;
    p = 2;
    if (p == len) return new IpAddress(true, ip, false);
  }
  let i = 0;
  while (i < 16) {
    const fieldStart = p;
    let acc = 0;
    while (p < len) {
      const d = hexDigitValue(s.charCodeAt(p));
      if (d < 0) break;
      if (p - fieldStart >= 4) return invalidIp(); // more than 4 hex digits
      acc = (acc << 4) + d;
      p++;
    }
    if (p == fieldStart) return invalidIp();
    if (p < len && s.charCodeAt(p) == 0x2e) {
      // Trailing dotted quad: only as the last 32 bits, or anywhere an ellipsis can absorb.
      if (ellipsis < 0 && i != 12) return invalidIp();
      if (i + 4 > 16) return invalidIp();
      if (!parseIpv4Into(s, fieldStart, len, ip, i)) return invalidIp();
      p = len;
      i += 4;
      break;
    }
    ip[i] = <u8>(acc >> 8);
    ip[i + 1] = <u8>acc;
    i += 2;
    if (p == len) break;
    if (s.charCodeAt(p) != 0x3a || p + 1 == len) return invalidIp();
    p++;
    if (s.charCodeAt(p) == 0x3a) {
      if (ellipsis >= 0) return invalidIp(); // second ::
      ellipsis = i;
      p++;
      if (p == len) break;
    }
  }
  if (p != len) return invalidIp();
  if (i < 16) {
    if (ellipsis < 0) return invalidIp();
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j];
    for (let j = ellipsis; j < ellipsis + n; j++) ip[j] = 0;
  } else if (ellipsis >= 0) {
    return invalidIp(); // :: must stand for at least one group
  }
  return new IpAddress(true, ip, false);
}

/** Go `net.ParseIP`: the first `.` or `:` decides between IPv4 and IPv6. */
export function parseGoIp(s: string): IpAddress {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c == 0x2e) return parseIpv4(s);
    if (c == 0x3a) return parseIpv6(s);
    if (c == 0x25) return invalidIp();
  }
  return invalidIp();
}

export function isGoIp(s: string): bool {
  return parseGoIp(s).ok;
}
