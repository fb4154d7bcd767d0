// The LMCache-operator domain shared by lmcache-injector and cacheblend-injector: settings,
// engine injection spec, engine/ConfigMap lookups, target container, pull secrets, payload
// staging, the shared planner steps and the response (the skip detail texts live in assembly/keys).
export * from "./image";
export * from "./injection";
export * from "./settings";
export * from "./engine";
export * from "./target";
export * from "./pullsecrets";
export * from "./payload";
export * from "./plan";
export * from "./respond";
