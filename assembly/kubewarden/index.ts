// A small Kubewarden SDK for AssemblyScript waPC guests: guest dispatch, request decoding,
// response building and host capabilities. Nothing here is specific to one policy.
export * from "./guest";
export * from "./request";
export * from "./response";
export * from "./host";
