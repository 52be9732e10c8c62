"""``turbokiosk play``: REPEAT repeats the wagers and keeps the positions picked for this round."""

from __future__ import annotations

from tests.helpers.play_session import Player

STADIUM_TRIPS = "As Kd 2c 3h Ah 4d 5s 6c Ad Qs 7h 2d"  # array, then the dealer


def test_repeat_keeps_the_positions_picked_for_this_round(player: Player) -> None:
    player.script = STADIUM_TRIPS
    player.say("bill 20", "game stadium-3cp", "positions 1 5 9", "bet ante 5", "deal", "play")
    assert player.runtime.state.last_bets[0].bet.positions == (0, 4, 8)
    player.say("positions 2 4 6", "repeat")
    state = player.runtime.state
    assert state.pending_positions == {0: (1, 3, 5)}
    assert state.pending_wagers == {0: {"ante": 500}}


def test_repeat_with_no_positions_picked_takes_the_last_rounds(player: Player) -> None:
    player.script = STADIUM_TRIPS
    player.say("bill 20", "game stadium-3cp", "positions 1 5 9", "bet ante 5", "deal", "play")
    player.say("repeat")
    assert player.runtime.state.pending_positions == {0: (0, 4, 8)}
