"""Jinja2 templates of the emitted runtime (runtime/) and of the audit reports (audit/).

Installed as the package `tpbgen.templates`; nothing here is imported as code.
"""
