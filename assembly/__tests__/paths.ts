// Test helper shared by the field-error specs.
import { newPath, Path } from "../validate/index";

/** A dotted test path as a value: `p("spec.x")` is `newPath("spec").child("x")`. */
export function p(dotted: string): Path {
  const names = dotted.split(".");
  let path = newPath(names[0]);
  for (let i = 1; i < names.length; i++) path = path.child(names[i]);
  return path;
}
