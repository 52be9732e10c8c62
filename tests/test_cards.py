import pytest
from hypothesis import given
from hypothesis import strategies as st

from kiosk.kernel import cards


def test_card_codes_follow_rank_times_four_plus_suit():
    assert cards.card("2s") == 0
    assert cards.card("2h") == 1
    assert cards.card("As") == 48
    assert cards.card("Ac") == 51
    assert cards.name(cards.card("Td")) == "Td"


@given(st.integers(min_value=0, max_value=51))
def test_name_and_card_are_inverse(code):
    assert cards.card(cards.name(code)) == code
    assert cards.rank(code) * 4 + cards.suit(code) == code


@pytest.mark.parametrize("bad", ["", "A", "1s", "Ax", "as", "Ass", "10s"])
def test_bad_names_are_refused_with_the_name_in_the_message(bad):
    with pytest.raises(cards.CardError, match="not a card name"):
        cards.card(bad)


@pytest.mark.parametrize("bad", [-1, 52, True, 3.0])
def test_bad_codes_are_refused(bad):
    with pytest.raises(cards.CardError, match="not a card code"):
        cards.name(bad)


def test_several_cards_round_trip():
    assert cards.names(cards.cards("As Kd 2c")) == "As Kd 2c"
    assert len(set(cards.FULL_DECK)) == 52
