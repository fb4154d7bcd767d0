// A small Kubewarden SDK for AssemblyScript waPC guests: guest dispatch, request decoding,
// response building, settings validation and host capabilities. Nothing here is specific to one policy.
export * from "./guest";
export * from "./request";
export * from "./response";
export * from "./settings";
export * from "./host";
