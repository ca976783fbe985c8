"""Writing a file so that a failure leaves the previous one whole.

Every file dpverify writes (a report, the errata block of a README, a certificate, the verdict cache
and its listing index) goes through :func:`write_atomic`: the text is written to a temporary file in
the same folder, which then replaces the target in one ``os.replace``. A full disk, a quota, a
read-only folder or a signal while writing leaves the target as it was and no temporary file behind;
the caller gets a :class:`WriteError` naming the target. A target that exists and is not a regular
file (``/dev/stdout``, ``/dev/null``, a named pipe) is written in place: a stream has no previous
content to keep.
"""
from __future__ import annotations

import os
import secrets
import stat

__all__ = ["WriteError", "cannot_write", "write_atomic"]


class WriteError(OSError):
    """A file could not be written (disk full, quota, permission, ...): ``filename`` is the target,
    ``strerror`` the system's reason."""

    def __str__(self) -> str:
        return f"cannot write {self.filename!r}: {self.strerror}"


def _fail(exc: OSError, path) -> WriteError:
    return WriteError(exc.errno, exc.strerror or type(exc).__name__, os.fspath(path))


def _is_stream(path: str) -> bool:
    try:
        return not stat.S_ISREG(os.stat(path).st_mode)
    except FileNotFoundError:
        return False


def write_atomic(path, data: str | bytes, *, mode: int | None = None) -> None:
    """Write ``data`` (text is encoded as UTF-8) to ``path`` through a temporary file of its folder
    and ``os.replace``. The file keeps the permissions of the one it replaces (a new one gets 0666
    less the umask, or ``mode``). Raises :class:`WriteError` naming ``path``; ``path`` is then unchanged
    and the temporary file removed (also when a signal interrupts the write)."""
    raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    target = os.fspath(path)
    try:
        if _is_stream(target):
            with open(target, "wb") as fh:
                fh.write(raw)
            return
        target = os.path.realpath(target)     # through a symbolic link: its target is replaced
        folder, name = os.path.split(target)
        tmp = os.path.join(folder, f".{name}.{secrets.token_hex(6)}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0),
                     0o666 if mode is None else mode)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(raw)
            if mode is None and os.path.exists(target):
                os.chmod(tmp, stat.S_IMODE(os.stat(target).st_mode))
            os.replace(tmp, target)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    except WriteError:
        raise
    except OSError as exc:
        raise _fail(exc, path) from None


def cannot_write(path) -> str | None:
    """Why ``path`` cannot be written by :func:`write_atomic`, or None when it can: checked by doing
    what the write will do (creating a file in its folder, or opening a stream), before any work."""
    target = os.fspath(path)
    if os.path.isdir(target):
        return "it is a directory; give a file name"
    folder = os.path.dirname(os.path.abspath(target))
    if not os.path.isdir(folder):
        return f"the folder {folder!r} does not exist"
    try:
        if _is_stream(target):
            os.close(os.open(target, os.O_WRONLY | os.O_APPEND))
            return None
        if os.path.exists(target) and not os.access(target, os.W_OK):
            return "not writable"
        folder = os.path.dirname(os.path.realpath(target))
        probe = os.path.join(folder, f".dpverify-probe.{secrets.token_hex(6)}.tmp")
        os.close(os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        os.unlink(probe)
    except OSError as exc:
        return f"not writable ({exc.strerror or exc})"
    return None
