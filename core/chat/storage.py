"""Element storage on local disk, so Chainlit's SQLAlchemy data layer persists elements (answer cards, graph).

Custom elements render from their props (kept in the elements table); the file copy exists because the data
layer refuses to persist an element without a storage client. Nothing here is served over HTTP. The disk is
touched from a worker thread: the event loop serves every chat of the process.
"""
from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from chainlit.data.storage_clients.base import BaseStorageClient


class LocalStorageClient(BaseStorageClient):
    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self.root.mkdir(parents=True, exist_ok=True)

    def _path(self, object_key: str) -> Path:
        path = (self.root / object_key).resolve()
        if not path.is_relative_to(self.root):
            raise ValueError(f"object key escapes the storage root: {object_key!r}")
        return path

    async def upload_file(
        self, object_key: str, data: bytes | str, mime: str = "application/octet-stream", overwrite: bool = True,
        content_disposition: str | None = None,
    ) -> dict[str, Any]:
        path = self._path(object_key)
        await asyncio.to_thread(_write, path, data.encode() if isinstance(data, str) else data, overwrite)
        return {"object_key": object_key, "url": ""}

    async def delete_file(self, object_key: str) -> bool:
        await asyncio.to_thread(self._path(object_key).unlink, missing_ok=True)
        return True

    async def get_read_url(self, object_key: str) -> str:
        return ""

    async def close(self) -> None:
        return None


def _write(path: Path, data: bytes, overwrite: bool) -> None:
    if path.exists() and not overwrite:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
