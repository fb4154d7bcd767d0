// Pod helpers over the JSON DOM: pure functions that report wrong types as values, plus the typed
// edits every injector applies through one `applyEdits`.
export * from "./fields";
export * from "./annotations";
export * from "./containers";
export * from "./args";
export * from "./env";
export * from "./lists";
export * from "./validate";
export * from "./edits";
