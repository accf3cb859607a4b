"""The EU real-file checks (bench/real/eu.py) on the shared GDPR, DORA and ECSP texts."""
from __future__ import annotations

import pytest

from bench.real import eu
from core.settings import get_settings

_FOLDER = get_settings().shared.joinpath(*eu._FOLDER)


@pytest.mark.skipif(not _FOLDER.is_dir(), reason=f"shared EU texts absent ({_FOLDER}); set CITEWALK_SHARED")
def test_every_eu_check_holds_on_the_shared_texts() -> None:
    checks = eu.run(get_settings())
    failed = [f"{c.name}: {c.value} (target {c.target}) {c.detail}" for c in checks if c.ok is False]
    assert not failed, "\n".join(failed)
    names = " | ".join(c.name for c in checks)
    # GDPR and DORA carry both point forms: their point checks are measured, not skipped for want of mentions.
    measured = [c for c in checks if "point citations" in c.name and c.ok is not None]
    assert {c.name.split(":")[0] for c in measured} >= {"Regulation (EU) 2016/679", "Regulation (EU) 2022/2554"}
    for must in ("point citations", "other-act citations", "recitals", "Article 4 definition", "amending instructions",
                 "empowerment pairs"):
        assert must in names
