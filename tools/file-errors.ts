// One wording for a file the user named that cannot be read: the errno code (to search for) and a
// hint (to act on), e.g. `ENOENT: no such file (check the path)`.

const HINTS: Record<string, string> = {
  ENOENT: "no such file (check the path)",
  EISDIR: "is a directory (give a file)",
  EACCES: "permission denied",
  ENOTDIR: "a part of the path is not a directory (check the path)",
};

export function fileErrorText(e: unknown): string {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === undefined) return (e as Error).message;
  return HINTS[code] ? `${code}: ${HINTS[code]}` : code;
}
