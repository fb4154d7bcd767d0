// NFS mount-target server rules (docs/shared-rules.md#nfs-server, including V1): first matching
// case only.
import { isAsciiDigit, trimGoSpace } from "./chars";
import { isDns1123Subdomain, labelsAtMost63 } from "./dns";
import { parseGoIp } from "./ip";
import { ValueCheck } from "./check";

// @ts-ignore: decorator
@lazy
export const NFS_SERVER_REQUIRED_DETAIL = "NFS mount-target hostname or IP address is required";
// @ts-ignore: decorator
@lazy
export const NFS_SERVER_WHITESPACE_DETAIL = "must not contain surrounding whitespace";
// @ts-ignore: decorator
@lazy
export const NFS_SERVER_INVALID_DETAIL = "must be a valid IPv4 address, IPv6 address, or DNS-1123 hostname";
// @ts-ignore: decorator
@lazy
export const NFS_SERVER_UNSPECIFIED_DETAIL = "must not be the unspecified address";

/** Made only of digits and dots (V1: such strings are IPv4 attempts, never hostnames). */
function isDigitsAndDots(s: string): bool {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isAsciiDigit(c) && c != 0x2e) return false;
  }
  return true;
}

/** DNS-1123 subdomain, every label ≤ 63 characters, not all-numeric (V1). */
export function isNfsHostname(s: string): bool {
  return isDns1123Subdomain(s) && labelsAtMost63(s) && !isDigitsAndDots(s);
}

export function checkNfsServer(v: string): ValueCheck {
  const trimmed = trimGoSpace(v);
  if (trimmed.length == 0) return ValueCheck.requiredValue(NFS_SERVER_REQUIRED_DETAIL);
  if (trimmed != v) return ValueCheck.invalid(NFS_SERVER_WHITESPACE_DETAIL);
  const ip = parseGoIp(v);
  if (ip.ok) {
    if (ip.isUnspecified()) return ValueCheck.invalid(NFS_SERVER_UNSPECIFIED_DETAIL);
    return ValueCheck.pass();
  }
  if (!isNfsHostname(v)) return ValueCheck.invalid(NFS_SERVER_INVALID_DETAIL);
  return ValueCheck.pass();
}
