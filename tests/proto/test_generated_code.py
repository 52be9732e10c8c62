"""The committed generated code matches the .proto sources, and the sources exist."""

from proto.generate import sources, stale_files


def test_schemas_exist():
    assert sources(), "no .proto files in proto/turbokiosk/v1"


def test_generated_code_is_fresh():
    assert stale_files() == [], "run: python -m proto.generate"
