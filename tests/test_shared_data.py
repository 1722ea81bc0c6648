"""tests/shared_data.py: test data that is not there fails, naming the path (never passes over nothing)."""

from __future__ import annotations

import pytest

from tests import shared_data


def test_missing_data_names_the_path(tmp_path, monkeypatch):
    monkeypatch.setenv(shared_data.ENV, str(tmp_path))
    with pytest.raises(shared_data.MissingTestData, match=str(tmp_path / "wpt_conformance")):
        shared_data.require("wpt_conformance")


def test_a_folder_without_its_files_is_missing_data(tmp_path, monkeypatch):
    monkeypatch.setenv(shared_data.ENV, str(tmp_path))
    (tmp_path / "wpt_conformance").mkdir()
    with pytest.raises(shared_data.MissingTestData, match=r"holds no \*\.json"):
        shared_data.require("wpt_conformance", glob="*.json")
    (tmp_path / "wpt_conformance" / "relu.json").write_text("{}")
    assert shared_data.require("wpt_conformance", glob="*.json") == tmp_path / "wpt_conformance"


def test_the_default_is_the_folder_beside_the_repository(monkeypatch):
    monkeypatch.delenv(shared_data.ENV, raising=False)
    assert shared_data.root() == (shared_data.REPO.parent / "shared" / "data").resolve()
