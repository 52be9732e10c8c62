"""The journal's text and hash formats are pinned: the fast paths write exactly what the
straightforward definitions write (canonical JSON as ``json.dumps`` with sorted keys and no
spaces; SHA-256 over 4-byte big-endian length-prefixed parts)."""

import dataclasses
import hashlib
import json
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.kernel.games.base import WagerResult
from kiosk.terminal.core import events as e
from kiosk.terminal.core.events import canonical_record
from kiosk.terminal.core.records import SeatResult
from kiosk.terminal.store.journal import body_hash, canonical, digest, row_hash

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**15), max_value=10**15)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4)
    ),
    max_leaves=20,
)


#: what the terminal's records hold: no floats (money is int cents, times int milliseconds);
#: every string, ints beyond 64 bits, and integer keys (``json`` writes them as strings)
RECORD = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.text(max_size=12),
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(st.text(max_size=6), inner, max_size=4)
        | st.dictionaries(st.integers(-5, 5), inner, max_size=3)
    ),
    max_leaves=20,
)


def reference_json(data):
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def reference_digest(*parts):
    h = hashlib.sha256()
    for part in parts:
        h.update(len(part).to_bytes(4, "big"))
        h.update(part)
    return h.digest()


@given(JSON)
def test_canonical_is_sorted_compact_ascii_json(data):
    assert canonical(data) == reference_json(data)


@given(RECORD)
def test_the_fast_record_encoding_writes_the_canonical_text(data):
    assert canonical_record(data) == reference_json(data)


@given(st.text(alphabet=st.characters(max_codepoint=0x7F)))
def test_ascii_control_characters_are_escaped_as_json_escapes_them(text):
    assert canonical_record({"s": text, "l": [text]}) == reference_json({"s": text, "l": [text]})


def test_values_json_refuses_are_refused_by_the_fast_path_too():
    for value in (object(), e.PoweredUp(1, software_version="", recovered=""), b"bytes", {1.5}):
        with pytest.raises(TypeError):
            canonical_record({"x": value})


@given(st.floats(allow_nan=False, allow_infinity=False))
def test_a_finite_float_would_still_round_trip_exactly(x):
    # not canonical json.dumps text (1e-7, not 1e-07), but the same value back
    event = e.ConfigChanged(0, before={"x": x}, after={}, by="")
    assert e.decode(e.encode(event)) == event


def test_no_event_field_can_hold_a_float():
    for kind in e.kinds():
        cls = e._REGISTRY[kind]
        for f in dataclasses.fields(cls):
            assert "float" not in str(f.type), f"{kind}.{f.name}: {f.type}"


@given(st.text(), RECORD, st.integers(min_value=0, max_value=2**62))
def test_events_encode_as_canonical_kind_and_data(text, data, at):
    for event in (
        e.TiltRaised(at, code="é\u2028\x00", reason=text, needs_attendant=True),
        e.ConfigChanged(at, before={"x": data}, after={"y": [data, text]}, by=text),
    ):
        data_fields = {f.name: getattr(event, f.name) for f in dataclasses.fields(event)}
        assert e.encode(event) == reference_json({"kind": event.type_name, "data": data_fields})
    result = WagerResult("ante", 100, 250, text, Fraction(3, 2))
    settled = e.RoundSettled(at, game_number=3, seats=(SeatResult(0, 100, 250, False, (result,)),))
    results = [{"spot": "ante", "stake": 100, "paid": 250, "outcome": text, "odds": "3/2"}]
    seats = [{"seat": 0, "stake": 100, "paid": 250, "handpay": False, "results": results}]
    assert e.encode(settled) == reference_json(
        {"kind": "RoundSettled", "data": {"at": at, "game_number": 3, "seats": seats}}
    )


@given(st.binary(max_size=40), st.integers(min_value=0, max_value=10**15), st.text())
def test_row_and_body_hashes_follow_their_definitions(prev, seq, body):
    assert row_hash(prev, seq, body) == reference_digest(prev, str(seq).encode(), body.encode())
    assert body_hash(seq, body) == reference_digest(str(seq).encode(), body.encode())
    assert digest(prev, body.encode()) == reference_digest(prev, body.encode())


def test_the_chain_hash_of_a_known_row_never_changes():
    body = e.encode(e.PoweredUp(1_800_000_000_000, software_version="1.0", recovered=""))
    assert body == (
        '{"data":{"at":1800000000000,"recovered":"","software_version":"1.0"},"kind":"PoweredUp"}'
    )
    assert (
        row_hash(b"\x00" * 32, 1, body).hex()
        == reference_digest(b"\x00" * 32, b"1", body.encode()).hex()
    )
