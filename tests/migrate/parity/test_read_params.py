"""Which params keys a pair reads: looked-up keys are recorded, whole-dict reads mark every key."""
from __future__ import annotations

import copy

from migrate.parity.read_params import ReadParams, unread, with_entries


def test_looked_up_keys_are_recorded_across_copies():
    read: set[str] = set()
    params = ReadParams({"units": 8, "ignored": 1, "rate": 0.1}, read)
    params["units"]
    copy.deepcopy(params).get("rate")  # the Estimator deep-copies its params
    assert unread(("units", "rate", "ignored"), read) == ["ignored"]


def test_forwarding_the_whole_dict_counts_as_reading_every_key():
    read: set[str] = set()
    params = ReadParams({"units": 8, "ignored": 1}, read)
    forwarded = {**params, "extra": 2}
    assert forwarded == {"units": 8, "ignored": 1, "extra": 2} and unread(("ignored",), read) == []


def test_the_engines_own_additions_do_not_read_anything():
    read: set[str] = set()
    extended = with_entries(ReadParams({"units": 8}, read), scenarios=["a"])
    assert read == set() and extended["scenarios"] == ["a"] and read == {"scenarios"}
