"""The text form of an instruction word: a disassembler, an assembler and a dict form, for any
generation, driven by the structs' `LAYOUT` tables.

One line per word::

    TENSOR_SCALAR_ARITH_OP header={inst_word_len=64 debug_cmd=0 debug_hint=0} ... imm0=1.5 ...

The mnemonic is the opcode's enum name; then every field of the struct the opcode is bound to, as
`name=value`: enums by member name (a value the enum does not define as hex), floats as the
shortest text that reads back to the same bits (`nan:0x7fc00001` keeps a NaN's payload),
PartitionOffsets as `sbuf[partition]+offset` / `psum[...]+...` when they point at an existing
byte, nested structs in braces, arrays in brackets. A union shows one arm, chosen for
readability (`arms.choose_arm`); `name.arm=value` names the arm where the value alone would not.
Reserved fields are shown only when non-zero, and any byte the fields shown do not reproduce
(padding, a `_Bool` holding 2, bits no field covers) follows as `@offset=0xNN`. Words whose opcode
does not decode on the generation are `.word 0x` + their 64 bytes in memory order. So
`asm(disasm(w)) == w` for every 64-byte word; `disasm(w, compact=True)` also leaves out every
field that holds its default (what `asm` fills in for an omitted field), and reads back as exactly.
`asm` also reads the lines of a `python -m tpb_isa disasm` listing: a leading `OFFSET:` column
and a column of the word's 128 hex digits are skipped (`TextForm.listing_columns`). A text of
many lines is read as a batch (`batch_asm._FastAsm`): a line in `disasm`'s own spelling is split into its
fields' texts by one expression per mnemonic made from the struct's `LAYOUT` (or, for the
skeletons a mnemonic's lines mostly have, at its blanks: by the C text scanner, `textscan`,
where it is built, which gives each token an id and no string), each distinct text is read
once by the same parser, and every other line by the per-line parser (`lines`), so what `asm`
accepts and every error it gives are the per-line parser's.

Grammar (EBNF; names are case-insensitive, `;` starts a comment, one instruction per line)::

    program    = { line "\\n" } ;
    line       = [ statement ] [ ";" { any character } ] ;
    statement  = ".word" HEX128 | MNEMONIC { assignment } ;
    assignment = NAME [ "." ARM ] "=" value | "@" INT "=" INT ;
    value      = INT | FLOAT | NAME | address | "{" { assignment } "}" | "[" [ value { "," value } ] "]" ;
    address    = ( "sbuf" | "psum" ) "[" INT "]" "+" INT ;
    INT        = [ "-" ] ( DIGITS | "0x" HEXDIGITS ) ;
    FLOAT      = [ "-" ] ( DIGITS "." [ DIGITS ] [ EXP ] | DIGITS EXP | "inf" ) | "nan:0x" HEXDIGITS ;

Omitted fields keep the struct's defaults (those of `cls()`); the opcode comes from the mnemonic.
A union given without an arm takes its only float arm for a FLOAT, its PartitionOffset arm for
an address, else its first arm (C's default member).

The modules, one reader or writer each: `grammar` (the tokens and numbers, written once, which
every reader reads by), `fields` (a field's raw values and a float's text), `base` (what the
readers and writers of a generation share), `disasm` (the per-word writer), `batch_disasm` (the
same text over numpy columns of words), `dicts` (the dict writer), `lines` (the per-line
reader), `batch_asm` and `asm_cells` (the batch reader), `form` (`TextForm`, which holds them).
"""

from .form import TextForm
from .grammar import AsmError

__all__ = ["AsmError", "TextForm"]
