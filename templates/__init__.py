"""tpbgen's templates and support library, installed as the package `tpbgen.templates`.

- `runtime/`: Jinja2 templates of what differs per drop: the generated package's files (`package/`)
  and each generation's modules (`gen/`);
- `support/`: the generated package's `_runtime`, real Python (and C) that is tested and
  type-checked here and copied verbatim into every generated `tpb_isa`;
- `audit/`: Jinja2 templates of the audit reports.
"""
