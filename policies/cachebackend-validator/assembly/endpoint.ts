// Endpoint shapes per remote-storage provider and the in-cluster namespace of an endpoint
// (docs/policies/cachebackend-validator.md#endpoint-shapes, #rule-6). Each check returns the
// error text, or "" when the endpoint is fine.
import {
  containsWhitespaceOrControl,
  trimGoSpace,
  goQuote,
  parseGoInt,
  goLowerAscii,
  goLowerEquals,
} from "../../../assembly/validate/index";
import { PROVIDER_LMCACHE_SERVER, PROVIDER_MOONCAKE, PROVIDER_REDIS } from "./backend";

// @ts-ignore: decorator
@lazy
export const ENDPOINT_EMPTY = "endpoint is empty";
// @ts-ignore: decorator
@lazy
export const ENDPOINT_WHITESPACE =
  "endpoint must not contain whitespace or control characters within the host or port; use host:port or lm://host:port with no embedded spaces";
// @ts-ignore: decorator
@lazy
export const ENDPOINT_PATH =
  "endpoint must be host:port (optionally prefixed lm://); paths/queries/fragments are not part of the LMCache wire and would be silently dropped";
// @ts-ignore: decorator
@lazy
export const ENDPOINT_HOST_PORT =
  "endpoint must be a non-empty host AND port (e.g. cache.example.com:8200 or lm://cache.example.com:8200); a scheme alone, a host with no port, an empty port, or a port with no host is not a valid LMCache endpoint";

/** The text before the first `://`, or null when there is none. */
function schemeOf(s: string): string | null {
  const i = s.indexOf("://");
  return i < 0 ? null : s.substring(0, i);
}

/** The LMCache endpoint shape (`ValidateLMCacheEndpoint`) of the trimmed value. */
export function lmcacheEndpointError(endpoint: string): string {
  const ep = trimGoSpace(endpoint);
  if (ep.length == 0) return ENDPOINT_EMPTY;
  if (containsWhitespaceOrControl(ep)) return ENDPOINT_WHITESPACE;
  let rest = ep;
  const scheme = schemeOf(ep);
  if (scheme !== null) {
    const lower = goLowerAscii(scheme);
    if (lower != "lm") {
      return (
        "endpoint scheme " +
        goQuote(lower) +
        " is not supported; use a bare host:port (the LMCache adapter adds the lm:// scheme) or an explicit lm://host:port URL"
      );
    }
    rest = ep.substring(scheme.length + 3);
  }
  for (let i = 0; i < rest.length; i++) {
    const c = rest.charCodeAt(i);
    if (c == 0x2f || c == 0x3f || c == 0x23) return ENDPOINT_PATH;
  }
  if (!splitsIntoHostAndPort(rest)) return ENDPOINT_HOST_PORT;
  return "";
}

/** `[host]:port` (nothing but `:port` after `]`, no `:` in the port) or `host:port` with exactly
 *  one `:`; host and port non-empty. */
function splitsIntoHostAndPort(s: string): bool {
  let host: string;
  let port: string;
  if (s.startsWith("[")) {
    const close = s.indexOf("]");
    if (close < 0 || close + 1 >= s.length || s.charCodeAt(close + 1) != 0x3a) return false;
    host = s.substring(1, close);
    port = s.substring(close + 2);
    if (port.indexOf(":") >= 0) return false;
  } else {
    const i = s.indexOf(":");
    if (i < 0 || s.lastIndexOf(":") != i) return false;
    host = s.substring(0, i);
    port = s.substring(i + 1);
  }
  return host.length > 0 && port.length > 0;
}

/** Go `net.SplitHostPort`: the port, or the address error as Go words it (prefixed `!`). */
function goSplitHostPort(hostport: string): string {
  const i = hostport.lastIndexOf(":");
  if (i < 0) return addrError(hostport, "missing port in address");
  let j = 0;
  let k = 0;
  if (hostport.startsWith("[")) {
    const end = hostport.indexOf("]");
    if (end < 0) return addrError(hostport, "missing ']' in address");
    if (end + 1 == hostport.length) return addrError(hostport, "missing port in address");
    if (end + 1 != i) {
      if (hostport.charCodeAt(end + 1) == 0x3a) return addrError(hostport, "too many colons in address");
      return addrError(hostport, "missing port in address");
    }
    j = 1;
    k = end + 1;
  } else if (hostport.substring(0, i).indexOf(":") >= 0) {
    return addrError(hostport, "too many colons in address");
  }
  if (hostport.substring(j).indexOf("[") >= 0) return addrError(hostport, "unexpected '[' in address");
  if (hostport.substring(k).indexOf("]") >= 0) return addrError(hostport, "unexpected ']' in address");
  return hostport.substring(i + 1);
}

function addrError(addr: string, why: string): string {
  return "!" + (addr.length > 0 ? "address " + addr + ": " + why : why);
}

/** `ValidateExternalEndpoint` for a provider, on the trimmed value. */
export function providerEndpointError(provider: string, endpoint: string): string {
  const ep = trimGoSpace(endpoint);
  if (provider == PROVIDER_LMCACHE_SERVER) return lmcacheEndpointError(ep);
  if (provider == PROVIDER_REDIS) {
    const scheme = schemeOf(ep);
    if (scheme !== null) {
      return "scheme " + goQuote(scheme) + " is not supported for remoteStorage.provider=Redis; use bare host:port";
    }
    const shape = lmcacheEndpointError(ep);
    if (shape.length > 0) return shape;
    const port = goSplitHostPort(ep);
    if (port.startsWith("!")) return "Redis endpoint must be a bare host:port: " + port.substring(1);
    const n = parseGoInt(port, 64);
    if (!n.ok || n.value < 1 || n.value > 65535) {
      return "Redis endpoint port " + goQuote(port) + " must be an integer in 1-65535";
    }
    return "";
  }
  if (provider == PROVIDER_MOONCAKE) {
    let address = ep;
    const scheme = schemeOf(ep);
    if (scheme !== null) {
      if (!goLowerEquals(scheme, "mooncakestore")) {
        return (
          "scheme " +
          goQuote(scheme) +
          " is not supported for remoteStorage.provider=Mooncake; use bare host:port or mooncakestore://host:port"
        );
      }
      address = ep.substring(scheme.length + 3);
      if (address.indexOf("://") >= 0) {
        return "nested endpoint schemes are not supported for remoteStorage.provider=Mooncake; use mooncakestore://host:port";
      }
    }
    return lmcacheEndpointError(address);
  }
  return "remote-storage provider " + goQuote(provider) + " has no endpoint protocol";
}

/** The namespace of an in-cluster Service endpoint (`<svc>.<ns>.svc[.cluster.local][:port]`),
 *  or "" when the endpoint is not one. */
export function inClusterNamespace(endpoint: string): string {
  let s = trimGoSpace(endpoint);
  // most backends have no endpoint: no suffix text is expanded for them
  if (s.length == 0) return "";
  s = goLowerAscii(s);
  const scheme = s.indexOf("://");
  if (scheme >= 0) s = s.substring(scheme + 3);
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c == 0x2f || c == 0x3f) {
      s = s.substring(0, i);
      break;
    }
  }
  const colon = s.lastIndexOf(":");
  if (colon >= 0 && s.substring(colon + 1).indexOf(".") < 0) s = s.substring(0, colon);
  if (s.endsWith(".")) s = s.substring(0, s.length - 1);
  if (s.endsWith(".cluster.local")) s = s.substring(0, s.length - ".cluster.local".length);
  if (!s.endsWith(".svc")) return "";
  s = s.substring(0, s.length - 4);
  const dot = s.lastIndexOf(".");
  if (dot < 0) return ""; // fewer than two labels
  return s.substring(dot + 1);
}
