"""Room for deeply nested C: every command runs in a worker thread with a large stack and a
raised, fixed recursion limit, because C nests further than Python's defaults allow.

pycparser parses expressions by recursive descent (about 8 Python frames per level of
parentheses), and tpbgen's own passes over a function body recurse once or a few times per level
of the expression tree. Python stops at 1,000 frames by default on a thread whose C stack is
8 MiB. Here the limit is RECURSION_LIMIT frames on a thread of STACK_BYTES, both fixed, so how
deep an input may be is a documented bound, not an accident of the platform:

- the front end refuses, with the place, text nested more than MAX_NESTING brackets deep
  (before pycparser sees it) and a function whose syntax tree is deeper than MAX_TREE_DEPTH
  (after long `&&`/`||` chains are regrouped, which keeps a 10,000-term chain 14 levels deep);
- RECURSION_LIMIT leaves every later pass at least 10 frames per tree level (the deepest
  needs about 5), and pycparser 8 frames per bracket level;
- STACK_BYTES is reserved address space, not memory: a thread touches only the pages it uses.

`run_deep` is re-entrant (a call from inside the worker runs in place), restores the previous
limit when done, and falls back to the calling thread when no thread of that size can be made.
The limit is the interpreter's: while a command runs, other threads of the process may recurse
that far too, on their own (smaller) stacks. Python 3.12 and later bound C-level recursion (the
json module) apart from this limit; the IR cache skips a body too deep for it.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from typing import TypeVar

MAX_NESTING = 12_000  # brackets ( [ { open at once in the preprocessed text
MAX_TREE_DEPTH = 12_000  # levels of one function's syntax tree, after chains are regrouped
RECURSION_LIMIT = 150_000  # Python frames
STACK_BYTES = 1 << 30  # 1 GiB of address space for the worker's C stack

T = TypeVar("T")

_state = threading.local()


def run_deep(fn: Callable[[], T]) -> T:
    """`fn()` on a worker thread with STACK_BYTES of stack and RECURSION_LIMIT frames; its result,
    or its exception re-raised here. Ctrl-C in the caller is passed on to the worker, which
    unwinds (running its `finally` blocks) before the KeyboardInterrupt reaches the caller."""
    if getattr(_state, "deep", False):
        return fn()
    result: list[T] = []
    error: list[BaseException] = []

    def work() -> None:
        _state.deep = True
        try:
            result.append(fn())
        except BaseException as exc:  # handed to the caller as it is
            error.append(exc)

    worker = threading.Thread(target=work, name="tpbgen-deep", daemon=True)
    old_limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old_limit, RECURSION_LIMIT))  # the worker's frames count from this
    try:
        old_stack = threading.stack_size(STACK_BYTES)  # applies to threads started from now on
        try:
            worker.start()
        finally:
            threading.stack_size(old_stack)
    except (ValueError, RuntimeError, MemoryError):  # the platform will not make a thread that size
        sys.setrecursionlimit(old_limit)
        return fn()
    try:
        while worker.is_alive():
            worker.join(0.1)
    except KeyboardInterrupt:
        _interrupt(worker)
        worker.join()
        raise
    finally:
        sys.setrecursionlimit(old_limit)
    if error:
        raise error[0]
    return result[0]


def _interrupt(worker: threading.Thread) -> None:
    """Raise KeyboardInterrupt inside `worker` at its next bytecode."""
    import ctypes

    if worker.ident is not None:
        ctypes.pythonapi.PyThreadState_SetAsyncExc(
            ctypes.c_ulong(worker.ident), ctypes.py_object(KeyboardInterrupt)
        )
