// Validation shared by the policies: character classes, DNS-1123, env var names, Go `net.ParseIP`,
// NFS server/path rules (V1, V2), Go number grammars, `%q`, field paths, Kubernetes field errors
// with aggregation and the UPDATE filter, and typed field reads from the JSON DOM that report
// wrong types as field errors (fields.ts). No policy logic here.
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
export * from "./path";
export * from "./fielderrors";
export * from "./fields";
export * from "./lists";
export * from "./duration";
