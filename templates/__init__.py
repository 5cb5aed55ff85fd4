"""tpbgen's Jinja2 templates, installed as the package `tpbgen.templates`.

- `runtime/`: templates of what differs per drop: the generated package's files (`package/`)
  and each generation's modules (`gen/`);
- `audit/`: templates of the audit reports.

The runtime library the generated package ships as `_runtime` is not a template: it is real
Python (and C), tested and type-checked as it is, in the repo's `runtime/` (installed as
`tpbgen.runtime`) and copied verbatim into every generated `tpb_isa`.
"""
