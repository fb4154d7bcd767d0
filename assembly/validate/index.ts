// Pure string validation shared by the policies: character classes, DNS-1123, env var names,
// Go `net.ParseIP`, NFS server/path rules (V1, V2), Go number grammars, `%q`, Kubernetes field
// errors with aggregation and the UPDATE filter. No policy logic and no JSON here.
export * from "./chars";
export * from "./check";
export * from "./dns";
export * from "./envname";
export * from "./ip";
export * from "./paths";
export * from "./nfs";
export * from "./numbers";
export * from "./quote";
export * from "./shorten";
export * from "./fielderrors";
export * from "./lists";
