"""Front end: header bytes in, one verified Generation IR out (discover, preprocess, dialect, parse,
comments, layout, IR build, JSON reading)."""
