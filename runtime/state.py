"""A machine's state as an `.npz` file: what `python -m tpb_isa run --init` reads and
`--save-state` writes.

An archive holds named arrays, each optional (what it does not name starts at zero):

- whole arrays, named as the Executor's: `sbuf` and `psum` (uint8, (partitions, bytes)),
  `registers` (uint32), `accumulators` (float32), each of the machine's exact shape;
- bytes at a place, named as the text form writes an address, `sbuf[P]+OFF` or `psum[P]+OFF`
  (OFF decimal or 0x-hex): a 1-D array of bytes written from byte OFF of partition P, or a
  2-D array whose rows go to partitions P, P+1, ...; applied after the whole arrays, in the
  archive's order.

Values are taken only when they are exact: integers within the target's range (uint8 bytes,
uint32 registers), floats a float32 holds exactly for the accumulators; anything else (a
float64 in SBUF, -5 in a byte, 1.7e300 in an accumulator, an object array) is refused with its
place (`STATE.npz#sbuf[3, 17]: ...`). ImmLd flops are not part of the state file.

`save_state` writes the four whole arrays, compressed, with fixed timestamps (the same state
gives the same bytes), replacing the file whole."""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from typing import Any

import numpy as np
import numpy.typing as npt

from .inputs import max_input_bytes, replace_whole

WHOLE = ("sbuf", "psum", "registers", "accumulators")
_PLACE = re.compile(r"\A(sbuf|psum)\[(\d+)\]\+(0[xX][0-9a-fA-F]+|\d+)\Z")
_READ_ERRORS = (
    OSError, ValueError, EOFError, KeyError, zipfile.BadZipFile, zlib.error, NotImplementedError,
)  # fmt: skip


class StateError(ValueError):
    """A state file the machine cannot take; the message starts with the file (and array)."""


def _index(shape: tuple[int, ...], flat: int) -> str:
    return ", ".join(str(int(i)) for i in np.unravel_index(flat, shape))


def exact(arr: npt.NDArray[Any], target: np.dtype[Any], where: str) -> npt.NDArray[Any]:
    """`arr` as `target` values when every element converts exactly, else StateError naming
    the first element that does not."""
    kind = arr.dtype.kind
    if target.kind in "ui":
        if kind not in "ui":
            raise StateError(
                f"{where}: {arr.dtype} values; the machine holds {target} here: give integers "
                "(raw bytes: array.view(np.uint8))"
            )
        info = np.iinfo(target)
        bad = np.flatnonzero((arr < info.min) | (arr > info.max))
        if bad.size:
            k = int(bad[0])
            raise StateError(
                f"{where}[{_index(arr.shape, k)}]: {arr.flat[k].item()} is outside {target} "
                f"({info.min}..{info.max})"
            )
        return arr.astype(target)
    if kind not in "fiu":
        raise StateError(f"{where}: {arr.dtype} values; the machine holds {target} here")
    with np.errstate(over="ignore", invalid="ignore"):
        cast = arr.astype(target)
        back = cast.astype(arr.dtype)
    same = (back == arr) | (np.isnan(cast) & np.isnan(arr) if kind == "f" else False)
    bad = np.flatnonzero(~np.asarray(same))
    if bad.size:
        k = int(bad[0])
        raise StateError(
            f"{where}[{_index(arr.shape, k)}]: {arr.flat[k].item()!r} is not a {target} value "
            "exactly"
        )
    return cast


def _members(archive: zipfile.ZipFile, path: str) -> list[str]:
    limit = max_input_bytes()
    names = []
    for info in archive.infolist():
        if not info.filename.endswith(".npy"):
            raise StateError(f"{path}#{info.filename}: not a .npy member of an .npz archive")
        if info.file_size > limit:
            raise StateError(f"{path}#{info.filename}: more than {limit >> 20} MB unpacked")
        names.append(info.filename[: -len(".npy")])
    return names


def _array(archive: zipfile.ZipFile, name: str, path: str) -> npt.NDArray[Any]:
    try:
        with archive.open(name + ".npy") as f:
            # numpy 1.26's stubs leave read_array/write_array untyped; 2.x types them
            arr = np.lib.format.read_array(f, allow_pickle=False)  # type: ignore[no-untyped-call, unused-ignore]
    except ValueError as e:
        if "pickle" in str(e) or "Object arrays" in str(e):
            raise StateError(f"{path}#{name}: an object array; the state holds numbers") from None
        raise StateError(f"{path}#{name}: not a NumPy array ({e})") from None
    except _READ_ERRORS as e:
        raise StateError(f"{path}#{name}: damaged ({e})") from None
    if not isinstance(arr, np.ndarray):
        raise StateError(f"{path}#{name}: not a NumPy array")
    return arr


def read_state(data: bytes, path: str) -> list[tuple[str, npt.NDArray[Any]]]:
    """The (name, array) pairs of an .npz archive's bytes, in the archive's order."""
    if data.startswith(b"\x93NUMPY"):
        raise StateError(
            f"{path}: one .npy array, not an .npz archive of named arrays "
            "(np.savez(path, sbuf=..., ...))"
        )
    if not data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        raise StateError(f"{path}: not an .npz archive (NumPy's zip of named .npy arrays)")
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except _READ_ERRORS as e:
        raise StateError(f"{path}: a damaged .npz archive ({e})") from None
    with archive:
        try:
            names = _members(archive, path)
        except _READ_ERRORS as e:
            if isinstance(e, StateError):
                raise
            raise StateError(f"{path}: a damaged .npz archive ({e})") from None
        return [(name, _array(archive, name, path)) for name in names]


def load_state(ex: Any, path: str, data: bytes) -> None:
    """Put the state archive `data` (read from `path`) into executor `ex`: whole arrays
    first, then bytes at places; nothing changes when an array is refused."""
    found = read_state(data, path)
    plans: list[tuple[npt.NDArray[Any], Any, npt.NDArray[Any]]] = []
    for name, arr in sorted(found, key=lambda na: na[0] not in WHOLE):
        where = f"{path}#{name}"
        if name in WHOLE:
            target = getattr(ex, name)
            if arr.shape != target.shape:
                raise StateError(
                    f"{where}: shape {arr.shape}, the machine's is {target.shape} "
                    "(bytes at a place are named sbuf[P]+OFF)"
                )
            plans.append((target, slice(None), exact(arr, target.dtype, where)))
            continue
        m = _PLACE.match(name)
        if m is None:
            raise StateError(
                f"{where}: not a part of the state ({', '.join(WHOLE)}, sbuf[P]+OFF or psum[P]+OFF)"
            )
        plans.append(_place(ex, m, arr, where))
    for target, index, values in plans:
        target[index] = values


def _place(
    ex: Any, m: re.Match[str], arr: npt.NDArray[Any], where: str
) -> tuple[npt.NDArray[Any], Any, npt.NDArray[Any]]:
    region, p, off = m.group(1), int(m.group(2)), int(m.group(3), 0)
    target = getattr(ex, region)
    rows = arr.reshape(1, -1) if arr.ndim == 1 else arr
    if arr.ndim not in (1, 2):
        raise StateError(f"{where}: a 1-D array of bytes or 2-D rows, not {arr.ndim}-D")
    parts, size = target.shape
    if p + rows.shape[0] > parts or off + rows.shape[1] > size:
        raise StateError(
            f"{where}: {rows.shape[0]} partitions x {rows.shape[1]} bytes from partition {p}, "
            f"byte {off:#x} go past {region}'s {parts} partitions x {size:#x} bytes"
        )
    values = exact(arr, target.dtype, where).reshape(rows.shape)
    return target, (slice(p, p + rows.shape[0]), slice(off, off + rows.shape[1])), values


def save_state(ex: Any, path: str) -> None:
    """Write `ex`'s whole arrays (WHOLE) to `path` as an .npz `load_state` reads back."""

    def write(f: Any) -> None:
        with zipfile.ZipFile(f, "w", zipfile.ZIP_DEFLATED) as z:
            for name in WHOLE:
                buf = io.BytesIO()
                np.lib.format.write_array(  # type: ignore[no-untyped-call, unused-ignore]
                    buf, np.ascontiguousarray(getattr(ex, name))
                )
                info = zipfile.ZipInfo(name + ".npy", date_time=(1980, 1, 1, 0, 0, 0))
                info.compress_type = zipfile.ZIP_DEFLATED
                z.writestr(info, buf.getvalue())

    replace_whole(path, write)
