"""The executor's semantics as declared data (`table`), read with a drop's IR (`binding`) and
lowered to the code every executor form is emitted as (`lower`)."""
