// Single source of truth for reserved keys, fixed names, reason codes and shared message
// formats. Only constant strings and functions: nothing here needs a start function.
export * from "./lmcache";
export * from "./reasons";
export * from "./inferencecache";
export * from "./messages";
export * from "./operator";
