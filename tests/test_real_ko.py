"""The Korean real-file checks (bench/real/ko.py) on the shared 의료법 act, 시행령 and 시행규칙."""
from __future__ import annotations

import pytest

from core.settings import get_settings


def test_korean_real_files_meet_their_targets() -> None:
    settings = get_settings()
    if not (settings.shared / "corpora" / "real" / "ko").is_dir():
        pytest.skip("shared Korean material (corpora/real/ko) is not here")
    from bench.real import ko

    checks = ko.run(settings)
    failed = [f"{c.name}: {c.value} (want {c.target})" for c in checks if c.ok is False]
    assert not failed, failed
    assert sum(c.ok is True for c in checks) >= 10
