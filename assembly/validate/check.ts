// The result shape of single-value rules (NFS server, paths) before a field path is attached.

/** Outcome of a single-value check: ok, or a Required / Invalid violation with its detail. */
export class ValueCheck {
  constructor(
    public ok: bool,
    public required: bool,
    public detail: string,
  ) {}
  static pass(): ValueCheck {
    return new ValueCheck(true, false, "");
  }
  static requiredValue(detail: string): ValueCheck {
    return new ValueCheck(false, true, detail);
  }
  static invalid(detail: string): ValueCheck {
    return new ValueCheck(false, false, detail);
  }
}
