"""Files dpverify writes for itself and reads back (the verdict cache, the listing index), sealed with
a key that only the user holds.

The key is a random secret of 32 bytes in the user's cache directory, outside every project:
``$DPVERIFY_CACHE_KEY`` (a file path) if set, else ``$XDG_CACHE_HOME/dpverify/cache-key``, else
``~/.cache/dpverify/cache-key``. It is created on first use with mode 0600 in a folder of mode 0700; a
key file that is not a regular file of this user, that others may read or write, or whose content is
not 64 hexadecimal digits is refused (the caller then neither reads nor writes sealed files, and says
so). A sealed file starts with one line, ``dpverify-sealed 1 <kind> <HMAC-SHA256 of kind and payload>``,
followed by the payload; :func:`unseal` returns the payload only when the line is exactly that under the
user's key. A folder planted in a repository, another user's cache or an edited entry is therefore
never read as dpverify's own (SECURITY.md).
"""
from __future__ import annotations

import hashlib
import hmac
import os
import secrets
import stat
from pathlib import Path

__all__ = ["KEY_ENV", "SealError", "key_path", "read_sealed", "seal", "unseal", "user_key"]

#: the environment variable naming the key file (tests, or a team that shares a cache on purpose)
KEY_ENV = "DPVERIFY_CACHE_KEY"
_MAGIC = b"dpverify-sealed 1 "
#: the largest sealed file read (a planted file of gigabytes is refused before it is read)
MAX_BYTES = 64 << 20


class SealError(Exception):
    """A sealed file (or the key) cannot be trusted; the message says why in a few words."""


def key_path() -> Path:
    env = os.environ.get(KEY_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME", "").strip()
    return (Path(base) if base and os.path.isabs(base) else Path.home() / ".cache") / "dpverify" / "cache-key"


_KEYS: dict[str, bytes] = {}


def _read_key(path: Path) -> bytes:
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise SealError(f"the key file {str(path)!r} is not a regular file")
        if hasattr(os, "getuid") and (st.st_uid != os.getuid() or st.st_mode & 0o077):
            raise SealError(f"the key file {str(path)!r} is not private to you (owner uid {st.st_uid}, mode "
                            f"{stat.S_IMODE(st.st_mode):o}; it must be yours, mode 600)")
        text = os.read(fd, 200).strip()
    finally:
        os.close(fd)
    try:
        key = bytes.fromhex(text.decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        key = b""
    if len(key) != 32:
        raise SealError(f"the key file {str(path)!r} does not hold 64 hexadecimal digits (delete it: a new one "
                        "is made)")
    return key


def user_key() -> bytes:
    """The user's key, created on first use; :class:`SealError` when it cannot be read or made."""
    path = key_path()
    if str(path) in _KEYS:
        return _KEYS[str(path)]
    try:
        key = _read_key(path)
    except FileNotFoundError:
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            tmp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            try:
                with os.fdopen(fd, "w") as fh:
                    fh.write(secrets.token_hex(32) + "\n")
                try:
                    os.link(tmp, path)     # never replaces a key another process made meanwhile
                except FileExistsError:
                    pass
            finally:
                os.unlink(tmp)
            key = _read_key(path)
        except OSError as exc:
            raise SealError(f"cannot make the key file {str(path)!r} ({exc.strerror or exc})") from None
    except OSError as exc:
        raise SealError(f"cannot read the key file {str(path)!r} ({exc.strerror or exc})") from None
    _KEYS[str(path)] = key
    return key


def _mac(key: bytes, kind: str, payload: bytes) -> str:
    return hmac.new(key, kind.encode() + b"\0" + payload, hashlib.sha256).hexdigest()


def seal(kind: str, payload: bytes) -> bytes:
    """``payload`` with its first line: the seal of ``kind`` (e.g. ``"verdict"``) under the user's key."""
    if not kind.isidentifier():
        raise ValueError(f"seal: kind must be an identifier, got {kind!r}")
    return _MAGIC + kind.encode() + b" " + _mac(user_key(), kind, payload).encode() + b"\n" + payload


def unseal(kind: str, data: bytes) -> bytes:
    """The payload of ``data`` sealed as ``kind`` under the user's key; :class:`SealError` otherwise."""
    head, sep, payload = data.partition(b"\n")
    parts = head.split(b" ")
    if not sep or not head.startswith(_MAGIC) or len(parts) != 4:
        raise SealError("not sealed by dpverify (written by another version, planted or damaged)")
    if parts[2] != kind.encode():
        raise SealError(f"sealed as {parts[2][:20].decode('ascii', 'replace')!r}, not as {kind!r}")
    if not hmac.compare_digest(parts[3], _mac(user_key(), kind, payload).encode()):
        raise SealError("its seal does not match your key (planted, written under another key, or edited)")
    return payload


def read_sealed(path, kind: str) -> bytes:
    """The payload of the sealed file ``path`` (:class:`SealError` if it is not sealed as ``kind``;
    ``FileNotFoundError`` and other ``OSError`` as they come)."""
    with open(path, "rb") as fh:
        data = fh.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise SealError(f"larger than {MAX_BYTES >> 20} MB")
    return unseal(kind, data)
