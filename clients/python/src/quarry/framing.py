"""LSP base-protocol framing (``Content-Length`` headers), with no I/O: bytes
in, messages out, so the blocking and the asyncio client share it."""
from __future__ import annotations

import json
from typing import Any

from .errors import ConnectionLost


def encode(message: Any) -> bytes:
    body = json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


class Decoder:
    """Splits a byte stream into decoded JSON messages."""

    def __init__(self) -> None:
        self._buffer = bytearray()

    def feed(self, data: bytes) -> list[Any]:
        self._buffer += data
        messages: list[Any] = []
        while True:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                return messages
            length = self._content_length(bytes(self._buffer[:end]))
            start = end + 4
            if len(self._buffer) < start + length:
                return messages
            body = bytes(self._buffer[start:start + length])
            del self._buffer[:start + length]
            try:
                messages.append(json.loads(body))
            except ValueError as error:
                raise ConnectionLost(f"the daemon sent invalid JSON: {error}") from None

    @staticmethod
    def _content_length(header: bytes) -> int:
        for line in header.split(b"\r\n"):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                try:
                    return int(value.strip())
                except ValueError:
                    break
        raise ConnectionLost(f"the daemon sent a frame without a valid Content-Length: {header!r}")
