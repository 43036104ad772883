"""The Jinja2 MLIR templates (a package so that jinja2.PackageLoader finds them installed or editable)."""
