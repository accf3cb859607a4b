"""Password accounts for the chat: a first-run admin plus users from settings, scrypt-hashed in the app DB.

`python -m core.accounts ensure` creates them and prints how to sign in (used by `make demo`).
"""
from __future__ import annotations

import argparse
import asyncio
import hashlib
import hmac
import secrets
import sys
from dataclasses import dataclass

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from core.app_db import accounts, create_schema, make_engine
from core.kept_secrets import kept_secret
from core.settings import Settings, get_settings

_SCRYPT = {"n": 2**14, "r": 8, "p": 1}


@dataclass(frozen=True)
class Account:
    email: str
    role: str


def normalise_email(email: str) -> str:
    return email.strip().lower()


def hash_password(password: str) -> str:
    salt = secrets.token_bytes(16)
    digest = hashlib.scrypt(password.encode(), salt=salt, **_SCRYPT)
    return f"scrypt${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        scheme, salt_hex, digest_hex = stored.split("$")
    except ValueError:
        return False
    if scheme != "scrypt":
        return False
    digest = hashlib.scrypt(password.encode(), salt=bytes.fromhex(salt_hex), **_SCRYPT)
    return hmac.compare_digest(digest.hex(), digest_hex)


def admin_password(settings: Settings) -> str:
    """CITEWALK_ADMIN_PASSWORD, else one generated on first run and kept (0600) in the data dir."""
    return settings.admin_password or kept_secret(settings.app_path / "admin-password", nbytes=12)


async def _upsert(engine: AsyncEngine, email: str, password: str, role: str, replace: bool) -> None:
    email = normalise_email(email)
    async with engine.begin() as conn:
        row = (await conn.execute(sa.select(accounts.c.password_hash).where(accounts.c.email == email))).first()
        if row is None:
            await conn.execute(accounts.insert().values(email=email, password_hash=hash_password(password), role=role))
        elif replace and not verify_password(password, row.password_hash):
            await conn.execute(
                accounts.update().where(accounts.c.email == email).values(password_hash=hash_password(password), role=role)
            )


async def ensure_accounts(engine: AsyncEngine, settings: Settings) -> None:
    """Admin only on first run (a password changed later in the DB is kept); settings users follow settings."""
    await _upsert(engine, settings.admin_email, admin_password(settings), "admin", replace=bool(settings.admin_password))
    for email, password in settings.app_users.items():
        await _upsert(engine, email, password, "user", replace=True)


async def authenticate(engine: AsyncEngine, email: str, password: str) -> Account | None:
    async with engine.connect() as conn:
        row = (await conn.execute(sa.select(accounts).where(accounts.c.email == normalise_email(email)))).first()
    if row is None:
        # Same work either way, so response time does not reveal which emails exist.
        verify_password(password, hash_password("x"))
        return None
    return Account(email=row.email, role=row.role) if verify_password(password, row.password_hash) else None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m core.accounts")
    parser.add_argument("action", choices=["ensure"])
    parser.parse_args(argv)
    settings = get_settings()

    async def run() -> None:
        engine = make_engine(settings)
        try:
            await create_schema(engine)
            await ensure_accounts(engine, settings)
        finally:
            await engine.dispose()

    asyncio.run(run())
    if settings.app_anonymous:
        print("Sign-in is off (CITEWALK_APP_ANONYMOUS=true, demo mode).")
    else:
        print(f"Sign in as {settings.admin_email} / {admin_password(settings)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
