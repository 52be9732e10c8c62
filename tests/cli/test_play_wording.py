"""``turbokiosk play`` speaks the player's language (issue 13): refusals in the screen's words
and in dollars, never the core's command names or cents; ``bet`` refuses what ``deal`` would;
help says how odd cents are paid; an edition that is not enabled says how to enable it."""

from __future__ import annotations

import re

import pytest

from tests.helpers.cli_process import turbokiosk
from tests.helpers.play_session import Player

CAMEL_CASE = re.compile(r"\b[A-Z][a-z]+[A-Z]\w*")


def _refusals(out: str) -> list[str]:
    return [line for line in out.splitlines() if line.startswith("!")]


def test_a_wager_below_the_minimum_is_refused_at_bet_in_dollars(player: Player) -> None:
    player.say("bill 20")
    head = player.runtime.journal.head()
    assert player.say("bet first_down 0.75") == (
        "! first_down: the least on one spot is $1.00 ($0.75 would be on it)"
    )
    assert player.runtime.state.pending_wagers.get(0, {}) == {}
    assert player.runtime.journal.head() == head
    assert "First Down $1.00" in player.say("bet first_down 1")


def test_a_round_beyond_the_table_maximum_is_refused_at_bet_and_what_bet_takes_deals(
    player: Player,
) -> None:
    player.say(*["bill 100"] * 5)
    for spot in ("first_down", "long_pass", "field_goal", "td"):
        assert not player.say(f"bet {spot} 100").startswith("!")
    assert player.say("bet nine_card_bonus 100") == (
        "! at most $500.00 a round, the decision wager included: $500.00 of wagers and "
        "$100.00 more if you double or play would make $600.00"
    )
    assert sum(player.runtime.state.pending_wagers[0].values()) == 40_000
    player.script = "2h 3d 4c As Ks Qs Js 9s 8s"
    assert "Double offered for $100.00" in player.say("deal")  # the deal takes what bet took


def test_stadium_bets_are_held_to_the_same_limits(player: Player) -> None:
    player.say(*["bill 100"] * 5, "game stadium-3cp", "positions 1 5 9")
    assert player.say("bet ante 0.5") == (
        "! ante: the least on one spot is $1.00 ($0.50 would be on it)"
    )
    player.say("bet ante 100", "bet pairs_plus 100", "bet six_card_bonus 100")
    assert not player.say("bet pairs_plus_row_1 100").startswith("!")  # $400 and Play: $500
    assert player.say("bet pairs_plus_row_2 100").startswith("! at most $500.00 a round")


@pytest.mark.parametrize(
    ("setup", "typed", "said"),
    [
        ((), "raise", "! there is no decision to make: place a wager and deal first"),
        (("bill 20", "bet first_down 5"), "play", "! there is no decision to make: deal first"),
        (
            ("bill 20", "bet first_down 5"),
            "game stadium-3cp",
            "! your wagers are on this game: deal, or take them back with 'clear', before "
            "choosing another game",
        ),
        (("bill 20", "bet first_down 5", "deal"), "game stadium-3cp", None),
        (("bill 20", "bet first_down 5", "deal"), "bet td 1", None),
        (("bill 20", "door open"), "cashout", None),
        ((), "deal", "! place a wager first"),
        (("bill 20",), "bet first_down 101", "! first_down: the most on one spot is $100.00"),
    ],
)
def test_refusals_are_in_the_players_words(
    player: Player, setup: tuple[str, ...], typed: str, said: str | None
) -> None:
    player.script = "2h 3d 4c As Ks Qs Js 9s 8s"
    player.say(*setup)
    (refused,) = _refusals(player.say(typed))
    if said is not None:
        assert refused == said
    assert not CAMEL_CASE.search(refused), refused  # no SelectEdition, PlaceWager...
    assert "cents" not in refused and " while " not in refused, refused


def test_help_says_how_odd_cents_are_paid_and_the_game_pays_so(player: Player) -> None:
    help_text = player.say("help")
    assert "3:2 on $1.25 wins $1.87 and returns $3.12" in help_text
    player.script = "As Ks Qs 2h 3h 4h 5h 6h 7h"  # 12 footballs in the community: 3:2
    out = player.say("bill 20", "bet first_down 1.25", "deal")
    assert re.search(r"First Down +stake +\$1\.25 +paid +\$3\.12 ", out), out


def test_an_edition_not_enabled_says_how_an_operator_enables_it(player: Player) -> None:
    assert player.say("game turbo-hockey") == (
        "! turbo-hockey is not enabled on this terminal; an operator enables it in the "
        "service menu's configuration (turbokiosk service --role operator enable turbo-hockey)"
    )
    assert (
        player.say("game nope") == "! there is no game 'nope'; 'game' lists this terminal's games"
    )


def test_play_with_an_edition_not_enabled_is_one_line_with_the_hint(tmp_path: object) -> None:
    result = turbokiosk("play", "--data-dir", f"{tmp_path}/terminal", "--edition", "turbo-hockey")
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert line == (
        "turbokiosk play: --edition: turbo-hockey is not enabled on this terminal; an operator "
        "enables it in the service menu's configuration "
        "(turbokiosk service --role operator enable turbo-hockey)"
    )
